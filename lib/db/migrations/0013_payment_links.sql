ALTER TABLE "checkout_sessions" ADD COLUMN "created_by_staff_id" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "default_return_url" text;