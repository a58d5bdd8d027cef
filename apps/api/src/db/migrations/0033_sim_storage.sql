CREATE TABLE "sim_storage_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"server_id" text NOT NULL,
	"user_id" text NOT NULL,
	"display_name" text NOT NULL,
	"email" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"quota_bytes" bigint,
	"password_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sim_storage_accounts_user_idx" ON "sim_storage_accounts" USING btree ("server_id",lower("user_id"));