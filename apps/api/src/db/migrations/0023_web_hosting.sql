CREATE SEQUENCE IF NOT EXISTS hosting_package_number_seq START WITH 10001;--> statement-breakpoint
CREATE TABLE "hosting_access" (
	"package_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hosting_packages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint DEFAULT nextval('hosting_package_number_seq') NOT NULL,
	"owner_id" uuid NOT NULL,
	"hosting_server_id" integer NOT NULL,
	"plan" text NOT NULL,
	"name" text NOT NULL,
	"primary_domain" text NOT NULL,
	"status" text DEFAULT 'provisioning' NOT NULL,
	"status_message" text,
	"website_type" text DEFAULT 'standard' NOT NULL,
	"panel_username" text NOT NULL,
	"panel_client_id" text,
	"panel_site_id" text,
	"backup_retention_days" integer DEFAULT 30 NOT NULL,
	"restore_requested_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"expiry_reminder_stage" integer DEFAULT 0 NOT NULL,
	"suspended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "hosting_servers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"hostname" text NOT NULL,
	"panel_server_id" text NOT NULL,
	"slots" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sim_hosting_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"server_id" text NOT NULL,
	"username" text NOT NULL,
	"state" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "hosting_server_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "hosting_package_id" uuid;--> statement-breakpoint
ALTER TABLE "hosting_access" ADD CONSTRAINT "hosting_access_package_id_hosting_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."hosting_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosting_access" ADD CONSTRAINT "hosting_access_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosting_packages" ADD CONSTRAINT "hosting_packages_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosting_packages" ADD CONSTRAINT "hosting_packages_hosting_server_id_hosting_servers_id_fk" FOREIGN KEY ("hosting_server_id") REFERENCES "public"."hosting_servers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hosting_access_pk" ON "hosting_access" USING btree ("package_id","user_id");--> statement-breakpoint
CREATE INDEX "hosting_access_user_idx" ON "hosting_access" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hosting_packages_number_idx" ON "hosting_packages" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "hosting_packages_username_idx" ON "hosting_packages" USING btree ("panel_username");--> statement-breakpoint
CREATE UNIQUE INDEX "hosting_packages_domain_idx" ON "hosting_packages" USING btree ("primary_domain") WHERE deleted_at is null and status <> 'failed';--> statement-breakpoint
CREATE INDEX "hosting_packages_owner_idx" ON "hosting_packages" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "hosting_packages_server_idx" ON "hosting_packages" USING btree ("hosting_server_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sim_hosting_accounts_username_idx" ON "sim_hosting_accounts" USING btree ("username");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_hosting_server_id_hosting_servers_id_fk" FOREIGN KEY ("hosting_server_id") REFERENCES "public"."hosting_servers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_hosting_package_id_hosting_packages_id_fk" FOREIGN KEY ("hosting_package_id") REFERENCES "public"."hosting_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_pending_hosting_idx" ON "orders" USING btree ("hosting_server_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "orders_hosting_package_idx" ON "orders" USING btree ("hosting_package_id");