CREATE TABLE "partner_api_secrets" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_kind" text NOT NULL,
	"created_by_id" text,
	"created_by_name" text,
	"last_used_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "partners_secret_hash_key";--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "financing_key_last4" text;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN IF NOT EXISTS "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "partner_api_secrets" ADD CONSTRAINT "partner_api_secrets_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "partner_api_secrets_secret_hash_key" ON "partner_api_secrets" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "partner_api_secrets_partner_idx" ON "partner_api_secrets" USING btree ("partner_id");--> statement-breakpoint
-- Each partner's secret from before becomes its first API secret: the hash moves as it is (the
-- secret itself was never stored), so the partner's backend goes on working unchanged.
INSERT INTO "partner_api_secrets" ("id", "partner_id", "name", "prefix", "secret_hash", "created_at", "created_by_kind")
SELECT 'sec_' || md5('migrated:' || "id"), "id", 'Original secret', '', "secret_hash", "created_at", 'system' FROM "partners";--> statement-breakpoint
ALTER TABLE "partners" DROP COLUMN "secret_hash";