ALTER TABLE "orders" DROP CONSTRAINT "orders_server_id_servers_id_fk";
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_hosting_package_id_hosting_packages_id_fk";
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_domain_id_domains_id_fk";
--> statement-breakpoint
DROP INDEX "orders_server_idx";--> statement-breakpoint
DROP INDEX "orders_hosting_package_idx";--> statement-breakpoint
DROP INDEX "orders_domain_idx";--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "server_id";--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "hosting_package_id";--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "domain_id";