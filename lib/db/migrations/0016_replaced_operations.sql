CREATE TABLE "replaced_operations" (
	"operation_id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"replaced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "replaced_operations" ADD CONSTRAINT "replaced_operations_session_id_checkout_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."checkout_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replaced_operations" ADD CONSTRAINT "replaced_operations_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "replaced_operations_session_idx" ON "replaced_operations" USING btree ("session_id");