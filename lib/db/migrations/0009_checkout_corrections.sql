ALTER TABLE "checkout_sessions" ADD COLUMN "operation_attempt" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "operation_client_hash" text;