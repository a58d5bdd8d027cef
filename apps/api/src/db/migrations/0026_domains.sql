CREATE TABLE "domains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"tld" text NOT NULL,
	"status" text NOT NULL,
	"status_message" text,
	"nameservers" jsonb NOT NULL,
	"transfer_lock" boolean DEFAULT true NOT NULL,
	"auto_renew" boolean DEFAULT true NOT NULL,
	"year_cents" integer NOT NULL,
	"premium" boolean DEFAULT false NOT NULL,
	"pending_deadline" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"expiry_reminder_stage" integer DEFAULT 0 NOT NULL,
	"suspended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "registrar_contacts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"contact_id" text NOT NULL,
	"contact_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "domain_id" uuid;--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrar_contacts" ADD CONSTRAINT "registrar_contacts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "domains_domain_idx" ON "domains" USING btree ("domain") WHERE deleted_at is null and status <> 'failed';--> statement-breakpoint
CREATE INDEX "domains_owner_idx" ON "domains" USING btree ("owner_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_domain_idx" ON "orders" USING btree ("domain_id");--> statement-breakpoint
-- Statistics (decisions 017, 024): lines billed per year (unit ANN: domains) are recurring too, a year
-- counting as twelve months, so a domain customer has MRR like a server or hosting customer.
CREATE OR REPLACE FUNCTION invoice_recurring_net_cents(doc jsonb) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(sum((l ->> 'netCents')::integer), 0)::integer FROM jsonb_array_elements(coalesce(doc -> 'lines', '[]'::jsonb)) AS l WHERE l ->> 'unitCode' IN ('MON', 'ANN')
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION invoice_term_months(doc jsonb) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(max(CASE WHEN l ->> 'unitCode' = 'ANN' THEN (l ->> 'quantity')::numeric * 12 ELSE (l ->> 'quantity')::numeric END)::integer, 0)
  FROM jsonb_array_elements(coalesce(doc -> 'lines', '[]'::jsonb)) AS l WHERE l ->> 'unitCode' IN ('MON', 'ANN') AND (l ->> 'quantity')::numeric > 0
$$;--> statement-breakpoint
-- Stored generated columns keep their old value until the row is written: recompute the invoices with yearly lines.
UPDATE "invoices" SET "document" = "document" WHERE "document" -> 'lines' @> '[{"unitCode": "ANN"}]'::jsonb;--> statement-breakpoint
SELECT statistics_rebuild();
