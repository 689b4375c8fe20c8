CREATE TABLE "leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"state" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "notification_url" text;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "signing_secret" text;--> statement-breakpoint
ALTER TABLE "partner_notifications" ADD CONSTRAINT "partner_notifications_session_id_checkout_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."checkout_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "partner_notifications_session_state_key" ON "partner_notifications" USING btree ("session_id","state");--> statement-breakpoint
CREATE INDEX "partner_notifications_pending_idx" ON "partner_notifications" USING btree ("delivered_at","next_attempt_at");