CREATE TABLE "staff_known_sources" (
	"user_id" text NOT NULL,
	"source" text NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "staff_known_sources_user_id_source_pk" PRIMARY KEY("user_id","source")
);
--> statement-breakpoint
CREATE TABLE "staff_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"purpose" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD COLUMN "enrolment" text;--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD COLUMN "totp_pending_secret" text;--> statement-breakpoint
ALTER TABLE "staff_known_sources" ADD CONSTRAINT "staff_known_sources_user_id_staff_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_links" ADD CONSTRAINT "staff_links_user_id_staff_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_links_user" ON "staff_links" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "staff_users" DROP COLUMN "totp_pending_secret";