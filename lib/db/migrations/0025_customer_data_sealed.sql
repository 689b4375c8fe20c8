-- The customer's data becomes text: its JSON sealed under SECRETS_KEYS. Rows stored before stay
-- their JSON, in plaintext, until the server's start (or `npm run admin -- reseal-secrets`) seals them.
ALTER TABLE "customer_data" ALTER COLUMN "data" SET DATA TYPE text USING "data"::text;--> statement-breakpoint
ALTER TABLE "customer_data" ALTER COLUMN "data" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_data" ADD COLUMN "document_hash" text;--> statement-breakpoint
ALTER TABLE "customer_data" ADD COLUMN "email_hash" text;--> statement-breakpoint
ALTER TABLE "customer_data" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "customer_data_document_hash_idx" ON "customer_data" USING btree ("document_hash");--> statement-breakpoint
CREATE INDEX "customer_data_email_hash_idx" ON "customer_data" USING btree ("email_hash");