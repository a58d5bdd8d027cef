DROP INDEX "users_customers_created_idx";--> statement-breakpoint
DROP INDEX "users_customers_name_idx";--> statement-breakpoint
DROP INDEX "users_customers_last_login_idx";--> statement-breakpoint
DROP INDEX "users_customers_last_login_desc_idx";--> statement-breakpoint
CREATE INDEX "users_customers_created_idx" ON "users" USING btree ("created_at","customer_number") WHERE role = 'customer' and deleted_at is null;--> statement-breakpoint
CREATE INDEX "users_customers_name_idx" ON "users" USING btree (lower("username"),"customer_number","username") WHERE role = 'customer' and deleted_at is null;--> statement-breakpoint
CREATE INDEX "users_customers_last_login_idx" ON "users" USING btree ("last_login_at","customer_number") WHERE role = 'customer' and deleted_at is null;--> statement-breakpoint
CREATE INDEX "users_customers_last_login_desc_idx" ON "users" USING btree ("last_login_at" DESC NULLS LAST,"customer_number" DESC NULLS FIRST) WHERE role = 'customer' and deleted_at is null;