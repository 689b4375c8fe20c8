ALTER TABLE "partner_notifications" ADD COLUMN "last_status_code" integer;--> statement-breakpoint
ALTER TABLE "partner_notifications" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "previous_signing_secret" text;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "previous_signing_secret_expires_at" timestamp with time zone;