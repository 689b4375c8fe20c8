CREATE TABLE "token_buckets" (
	"key" text PRIMARY KEY NOT NULL,
	"tokens" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_data" ADD COLUMN "editor_token_hash" text;--> statement-breakpoint
ALTER TABLE "customer_data" ADD COLUMN "corrections" integer DEFAULT 0 NOT NULL;