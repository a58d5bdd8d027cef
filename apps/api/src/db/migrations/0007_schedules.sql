CREATE TABLE "schedules" (
	"name" text PRIMARY KEY NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"last_started_at" timestamp with time zone,
	"last_owner" text,
	"runs" bigint DEFAULT 0 NOT NULL,
	"last_error" text
);
