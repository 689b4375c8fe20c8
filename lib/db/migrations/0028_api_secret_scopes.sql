-- What each API secret may do on the checkout sessions API; the secrets made before keep every power, as an explicit "all".
ALTER TABLE "partner_api_secrets" ADD COLUMN "scopes" text[] DEFAULT '{all}' NOT NULL;--> statement-breakpoint
ALTER TABLE "partner_api_secrets" ALTER COLUMN "scopes" DROP DEFAULT;
