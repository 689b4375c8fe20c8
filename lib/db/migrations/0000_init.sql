CREATE TABLE "status_snapshots" (
	"operation_id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"etag" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
