CREATE SEQUENCE IF NOT EXISTS vdc_number_seq START WITH 70001;--> statement-breakpoint
CREATE TABLE "vdc_isos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vdc_id" uuid NOT NULL,
	"name" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"received_bytes" bigint DEFAULT 0 NOT NULL,
	"volid" text,
	"status" text DEFAULT 'uploading' NOT NULL,
	"status_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "vdc_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"created_by_id" uuid NOT NULL,
	"cpu_cores" integer NOT NULL,
	"ram_gb" integer NOT NULL,
	"storage_gb" integer NOT NULL,
	"ipv4_count" integer NOT NULL,
	"months" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"order_id" uuid,
	"status" text DEFAULT 'open' NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vdcs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint DEFAULT nextval('vdc_number_seq') NOT NULL,
	"owner_id" uuid NOT NULL,
	"node_id" integer NOT NULL,
	"name" text NOT NULL,
	"cpu_cores" integer NOT NULL,
	"ram_gb" integer NOT NULL,
	"storage_gb" integer NOT NULL,
	"ipv4_count" integer NOT NULL,
	"iso_quota_gb" integer DEFAULT 50 NOT NULL,
	"max_vms" integer DEFAULT 20 NOT NULL,
	"pool_id" text NOT NULL,
	"vnet" text NOT NULL,
	"network_cidr" text,
	"network_status" text DEFAULT 'none' NOT NULL,
	"status" text DEFAULT 'provisioning' NOT NULL,
	"status_message" text,
	"expires_at" timestamp with time zone,
	"expiry_reminder_stage" integer DEFAULT 0 NOT NULL,
	"suspended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "vdcs_positive" CHECK ("vdcs"."cpu_cores" > 0 and "vdcs"."ram_gb" > 0 and "vdcs"."storage_gb" > 0 and "vdcs"."ipv4_count" >= 0 and "vdcs"."iso_quota_gb" >= 0 and "vdcs"."max_vms" > 0)
);
--> statement-breakpoint
ALTER TABLE "ip_addresses" ADD COLUMN "vdc_id" uuid;--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "vdc_id" uuid;--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "private_address" text;--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "iso_id" uuid;--> statement-breakpoint
ALTER TABLE "vdc_isos" ADD CONSTRAINT "vdc_isos_vdc_id_vdcs_id_fk" FOREIGN KEY ("vdc_id") REFERENCES "public"."vdcs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vdc_offers" ADD CONSTRAINT "vdc_offers_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vdc_offers" ADD CONSTRAINT "vdc_offers_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vdcs" ADD CONSTRAINT "vdcs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vdcs" ADD CONSTRAINT "vdcs_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vdc_isos_vdc_idx" ON "vdc_isos" USING btree ("vdc_id") WHERE deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "vdc_isos_name_idx" ON "vdc_isos" USING btree ("vdc_id","name") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "vdc_offers_ticket_idx" ON "vdc_offers" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "vdc_offers_customer_idx" ON "vdc_offers" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "vdcs_number_idx" ON "vdcs" USING btree ("number");--> statement-breakpoint
CREATE INDEX "vdcs_owner_idx" ON "vdcs" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "vdcs_node_idx" ON "vdcs" USING btree ("node_id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "vdcs_owner_expiry_idx" ON "vdcs" USING btree ("owner_id","expires_at","deleted_at");--> statement-breakpoint
CREATE INDEX "ip_addresses_vdc_idx" ON "ip_addresses" USING btree ("vdc_id") WHERE vdc_id is not null;--> statement-breakpoint
CREATE INDEX "servers_vdc_idx" ON "servers" USING btree ("vdc_id") WHERE vdc_id is not null and deleted_at is null;--> statement-breakpoint
ALTER TABLE "servers" ADD CONSTRAINT "servers_vdc_id_vdcs_id_fk" FOREIGN KEY ("vdc_id") REFERENCES "public"."vdcs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servers" ADD CONSTRAINT "servers_iso_id_vdc_isos_id_fk" FOREIGN KEY ("iso_id") REFERENCES "public"."vdc_isos"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_addresses" ADD CONSTRAINT "ip_addresses_vdc_id_vdcs_id_fk" FOREIGN KEY ("vdc_id") REFERENCES "public"."vdcs"("id") ON DELETE no action ON UPDATE no action;
