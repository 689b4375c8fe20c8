ALTER TABLE "checkout_sessions" ADD COLUMN "trace_parent" text;--> statement-breakpoint
ALTER TABLE "partner_notifications" ADD COLUMN "trace_parent" text;