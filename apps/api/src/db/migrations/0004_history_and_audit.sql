CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_id" uuid NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_ip_address_id_ip_addresses_id_fk";
--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "created_by_id" uuid;--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "creation_reason" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "ip_address" text;--> statement-breakpoint
UPDATE "orders" SET "ip_address" = "ip_addresses"."address" FROM "ip_addresses" WHERE "orders"."ip_address_id" = "ip_addresses"."id";--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_target_idx" ON "audit_events" USING btree ("target_type","target_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor_id","created_at");--> statement-breakpoint
ALTER TABLE "servers" ADD CONSTRAINT "servers_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_ip_address_id_ip_addresses_id_fk" FOREIGN KEY ("ip_address_id") REFERENCES "public"."ip_addresses"("id") ON DELETE set null ON UPDATE no action;