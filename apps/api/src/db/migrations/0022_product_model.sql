ALTER TABLE "orders" ALTER COLUMN "node_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "os_family" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "os" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "cpu_cores" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "ram_gb" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "storage_gb" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "product" text DEFAULT 'root_server' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "config" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_root_server_config" CHECK ("orders"."product" <> 'root_server' or ("orders"."node_id" is not null and "orders"."os_family" is not null and "orders"."os" is not null and "orders"."cpu_cores" is not null and "orders"."ram_gb" is not null and "orders"."storage_gb" is not null));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_product_config" CHECK ("orders"."product" = 'root_server' or "orders"."config" is not null);