ALTER TABLE "audit_events" ADD COLUMN "api_actor" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "checkout_sessions_partner_created_idx" ON "checkout_sessions" USING btree ("partner_id","created_at","id");