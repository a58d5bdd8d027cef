CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_customer_number_trgm_idx" ON "users" USING gin (("customer_number"::text) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_customers_created_idx" ON "users" USING btree ("created_at","customer_number") WHERE role = 'customer';