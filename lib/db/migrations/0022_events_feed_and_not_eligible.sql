ALTER TABLE "checkout_sessions" ADD COLUMN "not_eligible_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partner_notifications" ADD COLUMN "seq" bigserial NOT NULL;--> statement-breakpoint
-- The notifications written before this get their sequence in the order they were written (the
-- column's default numbered them in storage order): the sequence already stands at their count.
UPDATE "partner_notifications" SET "seq" = "ordered"."n"
FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS "n" FROM "partner_notifications") AS "ordered"
WHERE "partner_notifications"."id" = "ordered"."id";--> statement-breakpoint
CREATE UNIQUE INDEX "partner_notifications_partner_seq_key" ON "partner_notifications" USING btree ("partner_id","seq");
