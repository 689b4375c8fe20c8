-- IF NOT EXISTS: the migrator creates the schema first, for its own table (sandbox.__drizzle_migrations).
CREATE SCHEMA IF NOT EXISTS "sandbox";
--> statement-breakpoint
CREATE TABLE "sandbox"."accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"clock_offset_ms" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."faults" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sandbox"."faults_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account" text NOT NULL,
	"route" text,
	"fault" text NOT NULL,
	"latency_ms" integer NOT NULL,
	"retry_after_seconds" integer NOT NULL,
	"rate" double precision NOT NULL,
	"count" integer,
	"hits" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."operations" (
	"id" text PRIMARY KEY NOT NULL,
	"operation_number" integer GENERATED ALWAYS AS IDENTITY (sequence name "sandbox"."operations_operation_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account" text NOT NULL,
	"agency_id" integer NOT NULL,
	"external_id" text,
	"status" text NOT NULL,
	"total_price_cents" bigint NOT NULL,
	"management_fee_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"country_code" text NOT NULL,
	"request" jsonb NOT NULL,
	"token" text NOT NULL,
	"triggers" jsonb NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"created_real_at" timestamp with time zone NOT NULL,
	"history" jsonb NOT NULL,
	"refused_installments" jsonb NOT NULL,
	"financing" jsonb,
	"request_token" text,
	"travel_end_date" text
);
--> statement-breakpoint
CREATE TABLE "sandbox"."webhook_deliveries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sandbox"."webhook_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"event_id" integer NOT NULL,
	"at" text NOT NULL,
	"status" integer,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "sandbox"."webhook_events" (
	"event_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sandbox"."webhook_events_event_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account" text NOT NULL,
	"operation_id" text NOT NULL,
	"status" text NOT NULL,
	"url" text NOT NULL,
	"created_at" bigint NOT NULL,
	"acknowledged" boolean DEFAULT false NOT NULL,
	"superseded_by" integer,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint
);
--> statement-breakpoint
ALTER TABLE "sandbox"."webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "sandbox"."webhook_events"("event_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."webhook_events" ADD CONSTRAINT "webhook_events_operation_id_operations_id_fk" FOREIGN KEY ("operation_id") REFERENCES "sandbox"."operations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "faults_account_idx" ON "sandbox"."faults" USING btree ("account");--> statement-breakpoint
CREATE UNIQUE INDEX "operations_agency_external_id_key" ON "sandbox"."operations" USING btree ("agency_id","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "operations_request_token_key" ON "sandbox"."operations" USING btree ("request_token");--> statement-breakpoint
CREATE INDEX "operations_account_status_idx" ON "sandbox"."operations" USING btree ("account","status");--> statement-breakpoint
CREATE INDEX "operations_agency_created_idx" ON "sandbox"."operations" USING btree ("agency_id","created_at");--> statement-breakpoint
CREATE INDEX "operations_created_real_at_idx" ON "sandbox"."operations" USING btree ("created_real_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "sandbox"."webhook_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhook_events_operation_idx" ON "sandbox"."webhook_events" USING btree ("operation_id");--> statement-breakpoint
CREATE INDEX "webhook_events_due_idx" ON "sandbox"."webhook_events" USING btree ("account","next_attempt_at");