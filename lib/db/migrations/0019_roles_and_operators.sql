ALTER TABLE "staff_users" ALTER COLUMN "partner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_users" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN IF NOT EXISTS "disabled_at" timestamp with time zone;--> statement-breakpoint
-- Everyone who could sign in before roles keeps what they could do: an admin who may refund. The
-- default is for those rows only: every new account names its role.
ALTER TABLE "staff_users" ADD COLUMN "role" text DEFAULT 'admin' NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_users" ALTER COLUMN "role" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "can_refund" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "staff_users" SET "can_refund" = true;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "staff_users_partner" ON "staff_users" USING btree ("partner_id");--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_role" CHECK ("staff_users"."role" in ('operator', 'admin', 'agent'));--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_partner_unless_operator" CHECK (("staff_users"."role" = 'operator') = ("staff_users"."partner_id" is null));--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_operator_never_refunds" CHECK (not ("staff_users"."role" = 'operator' and "staff_users"."can_refund"));
