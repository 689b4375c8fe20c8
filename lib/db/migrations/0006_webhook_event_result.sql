ALTER TABLE "webhook_events" ADD COLUMN "result" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "detail" text;--> statement-breakpoint
-- The free-text outcome, as processing wrote it until now, split into a result and its detail.
UPDATE "webhook_events" SET
  "result" = CASE
    WHEN "outcome" = 'applied and acknowledged' THEN 'acknowledged'
    WHEN "outcome" LIKE 'rejected: %' THEN 'rejected'
    WHEN "outcome" LIKE 'applied; superseded%' THEN 'superseded'
    WHEN "outcome" LIKE 'applied; the body''s status%' THEN 'status_mismatch'
  END,
  "detail" = CASE
    WHEN "outcome" = 'applied and acknowledged' THEN NULL
    WHEN "outcome" LIKE 'rejected: %' THEN substr("outcome", 11)
    WHEN "outcome" LIKE 'applied; %' THEN substr("outcome", 10)
    ELSE "outcome"
  END
WHERE "outcome" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_events" DROP COLUMN "outcome";