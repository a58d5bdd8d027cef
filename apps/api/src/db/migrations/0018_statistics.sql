-- Statistics (docs/decisions/017): figures of the frozen invoice document as generated columns. The two
-- functions read the lines; IMMUTABLE because they depend on their argument only (a generated column needs it).
CREATE OR REPLACE FUNCTION invoice_recurring_net_cents(doc jsonb) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(sum((l ->> 'netCents')::integer), 0)::integer FROM jsonb_array_elements(coalesce(doc -> 'lines', '[]'::jsonb)) AS l WHERE l ->> 'unitCode' = 'MON'
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION invoice_term_months(doc jsonb) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(max((l ->> 'quantity')::numeric)::integer, 0) FROM jsonb_array_elements(coalesce(doc -> 'lines', '[]'::jsonb)) AS l WHERE l ->> 'unitCode' = 'MON' AND (l ->> 'quantity')::numeric > 0
$$;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "net_cents" integer GENERATED ALWAYS AS (coalesce(("document" -> 'totals' ->> 'netCents')::integer, 0)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "recurring_net_cents" integer GENERATED ALWAYS AS (invoice_recurring_net_cents("document")) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "term_months" integer GENERATED ALWAYS AS (invoice_term_months("document")) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "service_month" integer GENERATED ALWAYS AS ((substr(coalesce("document" ->> 'periodStart', "issue_date"), 1, 4)::integer * 12 + substr(coalesce("document" ->> 'periodStart', "issue_date"), 6, 2)::integer - 1)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "service_end_month" integer GENERATED ALWAYS AS ((substr(coalesce("document" ->> 'periodStart', "issue_date"), 1, 4)::integer * 12 + substr(coalesce("document" ->> 'periodStart', "issue_date"), 6, 2)::integer - 1 + invoice_term_months("document"))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "issue_month" integer GENERATED ALWAYS AS ((substr("issue_date", 1, 4)::integer * 12 + substr("issue_date", 6, 2)::integer - 1)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "servers_owner_expiry_idx" ON "servers" USING btree ("owner_id","expires_at","deleted_at");--> statement-breakpoint
CREATE INDEX "invoices_issue_month_idx" ON "invoices" USING btree ("issue_month","kind","net_cents");--> statement-breakpoint
CREATE INDEX "invoices_recurring_idx" ON "invoices" USING btree ("service_end_month","service_month","recurring_net_cents","term_months","user_id","credited_at") WHERE kind = 'invoice' and recurring_net_cents > 0;--> statement-breakpoint
CREATE INDEX "invoices_first_paid_idx" ON "invoices" USING btree ("user_id","issue_month") WHERE kind = 'invoice' and paid_at is not null;