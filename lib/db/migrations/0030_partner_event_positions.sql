-- Each partner's event feed numbered by itself (1, 2, 3…), under a counter row per partner instead of one lock for the whole platform.
CREATE TABLE "partner_event_counters" (
	"partner_id" text PRIMARY KEY NOT NULL,
	"last_position" bigint NOT NULL,
	"legacy_last_seq" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partner_event_counters" ADD CONSTRAINT "partner_event_counters_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_notifications" ADD COLUMN "partner_seq" bigint;--> statement-breakpoint
-- The notifications written so far keep their order: each partner's, numbered by the deployment-wide sequence they were written in.
UPDATE "partner_notifications" AS "n" SET "partner_seq" = "numbered"."position"
FROM (SELECT "id", row_number() OVER (PARTITION BY "partner_id" ORDER BY "seq") AS "position" FROM "partner_notifications") AS "numbered"
WHERE "n"."id" = "numbered"."id";--> statement-breakpoint
ALTER TABLE "partner_notifications" ALTER COLUMN "partner_seq" SET NOT NULL;--> statement-breakpoint
-- Each partner's counter continues from its last position; the cursors it was handed so far were `seq` numbers up to its last one.
INSERT INTO "partner_event_counters" ("partner_id", "last_position", "legacy_last_seq")
SELECT "n"."partner_id", max("n"."partner_seq"), max("n"."seq") FROM "partner_notifications" AS "n"
JOIN "partners" AS "p" ON "p"."id" = "n"."partner_id"
GROUP BY "n"."partner_id";--> statement-breakpoint
CREATE UNIQUE INDEX "partner_notifications_partner_position_key" ON "partner_notifications" USING btree ("partner_id","partner_seq");
