CREATE TABLE "partner_agencies" (
	"partner_id" text NOT NULL,
	"agency_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_agencies_partner_id_agency_id_pk" PRIMARY KEY("partner_id","agency_id")
);
--> statement-breakpoint
ALTER TABLE "partner_agencies" ADD CONSTRAINT "partner_agencies_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;