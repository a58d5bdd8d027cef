CREATE TABLE "sim_isos" (
	"node" text NOT NULL,
	"volid" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"available_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_pools" (
	"poolid" text PRIMARY KEY NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_vnets" (
	"vnet" text PRIMARY KEY NOT NULL,
	"zone" text NOT NULL,
	"tag" integer NOT NULL,
	"subnet" text NOT NULL,
	"gateway" text NOT NULL,
	"alias" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sim_isos_node_volid_idx" ON "sim_isos" USING btree ("node","volid");--> statement-breakpoint
CREATE UNIQUE INDEX "sim_vnets_zone_tag_idx" ON "sim_vnets" USING btree ("zone","tag");