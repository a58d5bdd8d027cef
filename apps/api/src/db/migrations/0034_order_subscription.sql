ALTER TABLE "orders" ADD COLUMN "subscription_id" uuid;--> statement-breakpoint
UPDATE "orders" SET "subscription_id" = CASE "product" WHEN 'root_server' THEN "server_id" WHEN 'webhosting' THEN "hosting_package_id" WHEN 'domain' THEN "domain_id" END;--> statement-breakpoint
CREATE INDEX "orders_subscription_idx" ON "orders" USING btree ("product","subscription_id");
