-- Answering customers' data requests (find, export, erase) is a permission an admin grants, to admins only.
ALTER TABLE "staff_users" ADD COLUMN "can_data_requests" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_data_requests_admin_only" CHECK (not "staff_users"."can_data_requests" or "staff_users"."role" = 'admin');