CREATE TABLE "ip_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"version" text NOT NULL,
	"subnet" text NOT NULL,
	"gateway" text NOT NULL,
	"server_id" uuid,
	"reserved_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "nodes" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"host" text NOT NULL,
	"cpu_cores" integer NOT NULL,
	"ram_gb" integer NOT NULL,
	"storage_gb" integer NOT NULL,
	"status" text DEFAULT 'unknown' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_access" (
	"server_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"server_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"upid" text,
	"status" text DEFAULT 'running' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"error" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "servers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vmid" integer NOT NULL,
	"name" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"node_id" integer NOT NULL,
	"os" text NOT NULL,
	"cpu_cores" integer NOT NULL,
	"ram_gb" integer NOT NULL,
	"storage_gb" integer NOT NULL,
	"status" text DEFAULT 'provisioning' NOT NULL,
	"status_message" text,
	"firewall_enabled" boolean DEFAULT true NOT NULL,
	"ssh_keys" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone,
	"busy_task_id" uuid,
	"last_power_action_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sim_tasks" (
	"upid" text PRIMARY KEY NOT NULL,
	"node" text NOT NULL,
	"vmid" integer,
	"type" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"duration_ms" integer NOT NULL,
	"exit_status" text DEFAULT 'OK' NOT NULL,
	"effect" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"applied_at" timestamp with time zone,
	"size_bytes" bigint
);
--> statement-breakpoint
CREATE TABLE "sim_vms" (
	"vmid" integer PRIMARY KEY NOT NULL,
	"node" text NOT NULL,
	"state" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "server_access" ADD CONSTRAINT "server_access_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_access" ADD CONSTRAINT "server_access_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_tasks" ADD CONSTRAINT "server_tasks_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servers" ADD CONSTRAINT "servers_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servers" ADD CONSTRAINT "servers_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ip_addresses_address_idx" ON "ip_addresses" USING btree (lower("address"));--> statement-breakpoint
CREATE INDEX "ip_addresses_server_idx" ON "ip_addresses" USING btree ("server_id");--> statement-breakpoint
CREATE UNIQUE INDEX "nodes_name_idx" ON "nodes" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "nodes_host_idx" ON "nodes" USING btree ("host");--> statement-breakpoint
CREATE UNIQUE INDEX "server_access_pk" ON "server_access" USING btree ("server_id","user_id");--> statement-breakpoint
CREATE INDEX "server_access_user_idx" ON "server_access" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "server_tasks_server_idx" ON "server_tasks" USING btree ("server_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "servers_vmid_idx" ON "servers" USING btree ("vmid");--> statement-breakpoint
CREATE INDEX "servers_owner_idx" ON "servers" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "servers_node_idx" ON "servers" USING btree ("node_id");--> statement-breakpoint
-- VM ids are ours: three digits from 100 upward, as the staff screens show them.
CREATE SEQUENCE IF NOT EXISTS server_vmid_seq START WITH 100 MINVALUE 100;
