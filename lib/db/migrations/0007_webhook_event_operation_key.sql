-- An eventId names an event only together with its operation: the key becomes (event_id, operation_id).
-- The old key had PostgreSQL's default name, which the new one takes over.
ALTER TABLE "webhook_events" DROP CONSTRAINT "webhook_events_pkey";--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_pkey" PRIMARY KEY("event_id","operation_id");
