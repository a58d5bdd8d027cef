CREATE SEQUENCE IF NOT EXISTS storage_account_number_seq START WITH 50001;--> statement-breakpoint
CREATE TABLE "storage_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint DEFAULT nextval('storage_account_number_seq') NOT NULL,
	"owner_id" uuid NOT NULL,
	"storage_server_id" integer NOT NULL,
	"plan" text NOT NULL,
	"quota_gb" integer NOT NULL,
	"account_name" text NOT NULL,
	"status" text DEFAULT 'provisioning' NOT NULL,
	"status_message" text,
	"expires_at" timestamp with time zone,
	"expiry_reminder_stage" integer DEFAULT 0 NOT NULL,
	"suspended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "storage_servers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"fingerprint" text DEFAULT '' NOT NULL,
	"capacity_gb" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "storage_accounts" ADD CONSTRAINT "storage_accounts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_accounts" ADD CONSTRAINT "storage_accounts_storage_server_id_storage_servers_id_fk" FOREIGN KEY ("storage_server_id") REFERENCES "public"."storage_servers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "storage_accounts_number_idx" ON "storage_accounts" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "storage_accounts_name_idx" ON "storage_accounts" USING btree ("account_name") WHERE deleted_at is null and status <> 'failed';--> statement-breakpoint
CREATE INDEX "storage_accounts_owner_idx" ON "storage_accounts" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "storage_accounts_server_idx" ON "storage_accounts" USING btree ("storage_server_id");