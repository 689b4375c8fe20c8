CREATE TABLE "checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"booking_reference" text NOT NULL,
	"booking" jsonb NOT NULL,
	"booking_hash" text NOT NULL,
	"return_url" text NOT NULL,
	"locale" text NOT NULL,
	"operation_id" text,
	"operation_status" text,
	"operation_updated_at" timestamp with time zone,
	"payment_url" text,
	"chosen_offer_id" integer,
	"financing_status" text,
	"has_alternatives" boolean,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_data" (
	"session_id" text PRIMARY KEY NOT NULL,
	"data" jsonb NOT NULL,
	"submitted" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partners" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"allowed_origins" jsonb NOT NULL,
	"financing_agency_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_status_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"operation_updated_at" timestamp with time zone,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_data" ADD CONSTRAINT "customer_data_session_id_checkout_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."checkout_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_status_history" ADD CONSTRAINT "session_status_history_session_id_checkout_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."checkout_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_sessions_partner_booking_key" ON "checkout_sessions" USING btree ("partner_id","booking_reference");--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_sessions_operation_key" ON "checkout_sessions" USING btree ("operation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partners_secret_hash_key" ON "partners" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "session_status_history_session_idx" ON "session_status_history" USING btree ("session_id");