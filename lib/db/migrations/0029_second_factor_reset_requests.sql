CREATE TABLE "second_factor_reset_requests" (
	"member_id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "second_factor_reset_requests" ADD CONSTRAINT "second_factor_reset_requests_member_id_staff_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "second_factor_reset_requests" ADD CONSTRAINT "second_factor_reset_requests_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "second_factor_reset_requests" ADD CONSTRAINT "second_factor_reset_requests_requested_by_staff_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "second_factor_reset_requests_partner" ON "second_factor_reset_requests" USING btree ("partner_id");