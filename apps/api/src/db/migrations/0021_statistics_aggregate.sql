CREATE TABLE "statistics_customers" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"paying_months" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"first_paid_month" integer
);
--> statement-breakpoint
CREATE TABLE "statistics_months" (
	"month" integer PRIMARY KEY NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	"paying_customers" integer DEFAULT 0 NOT NULL,
	"new_customers" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statistics_mrr_changes" (
	"month" integer NOT NULL,
	"term_months" integer NOT NULL,
	"recurring_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "statistics_mrr_changes_month_term_months_pk" PRIMARY KEY("month","term_months")
);
--> statement-breakpoint
DROP INDEX "invoices_unpaid_idx";--> statement-breakpoint
ALTER TABLE "statistics_customers" ADD CONSTRAINT "statistics_customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_unpaid_idx" ON "invoices" USING btree ("due_date","issue_date","net_cents","gross_cents","id") WHERE kind = 'invoice' and paid_at is null and credited_at is null;--> statement-breakpoint
-- The statistics' rollup (docs/decisions/020), kept by triggers on invoices so that every writer (checkout,
-- upgrade, manual invoice, credit note, recorded payment, and any direct SQL) updates it in its own
-- transaction. Definitions as in decision 017.
-- The month after a term's last month: its end, or from the month of its credit note on, never before it starts.
CREATE OR REPLACE FUNCTION statistics_term_end(service_month integer, service_end_month integer, credited_at timestamptz) RETURNS integer LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT greatest(service_month, least(service_end_month, coalesce(
    extract(year from credited_at at time zone 'Europe/Berlin')::integer * 12 + extract(month from credited_at at time zone 'Europe/Berlin')::integer - 1,
    service_end_month)))
$$;--> statement-breakpoint
-- What one invoice row adds to the additive figures (sign -1 takes it away): revenue in its issue month and
-- its recurring net as an MRR change at the start and the end of its term.
CREATE OR REPLACE FUNCTION statistics_add_invoice(i invoices, sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  term_end integer;
BEGIN
  INSERT INTO statistics_months AS s (month, revenue_cents)
    VALUES (i.issue_month, sign * (CASE WHEN i.kind = 'invoice' THEN i.net_cents ELSE -i.net_cents END))
    ON CONFLICT (month) DO UPDATE SET revenue_cents = s.revenue_cents + excluded.revenue_cents;
  IF i.kind = 'invoice' AND i.recurring_net_cents > 0 THEN
    term_end := statistics_term_end(i.service_month, i.service_end_month, i.credited_at);
    IF term_end > i.service_month THEN
      INSERT INTO statistics_mrr_changes AS c (month, term_months, recurring_cents)
        VALUES (i.service_month, i.term_months, sign * i.recurring_net_cents), (term_end, i.term_months, -sign * i.recurring_net_cents)
        ON CONFLICT (month, term_months) DO UPDATE SET recurring_cents = c.recurring_cents + excluded.recurring_cents;
    END IF;
  END IF;
END $$;--> statement-breakpoint
-- Recomputes one customer's paying months and first paid month from their invoices and moves the monthly
-- counts by the difference (the caller holds the rollup's lock, see statistics_invoice_changed).
CREATE OR REPLACE FUNCTION statistics_refresh_customer(customer uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  old_months integer[];
  old_first integer;
  new_months integer[];
  new_first integer;
BEGIN
  INSERT INTO statistics_customers (user_id) VALUES (customer) ON CONFLICT (user_id) DO NOTHING;
  SELECT paying_months, first_paid_month INTO old_months, old_first FROM statistics_customers WHERE user_id = customer;
  SELECT coalesce(array_agg(DISTINCT m ORDER BY m), '{}') INTO new_months
    FROM invoices i, generate_series(i.service_month, statistics_term_end(i.service_month, i.service_end_month, i.credited_at) - 1) m
    WHERE i.user_id = customer AND i.kind = 'invoice' AND i.recurring_net_cents > 0;
  SELECT min(issue_month) INTO new_first FROM invoices WHERE user_id = customer AND kind = 'invoice' AND paid_at IS NOT NULL;
  IF new_months IS DISTINCT FROM old_months OR new_first IS DISTINCT FROM old_first THEN
    INSERT INTO statistics_months AS s (month, paying_customers, new_customers)
      SELECT month, sum(paying), sum(fresh) FROM (
        SELECT m, 1, 0 FROM unnest(new_months) m WHERE NOT m = ANY (old_months)
        UNION ALL SELECT m, -1, 0 FROM unnest(old_months) m WHERE NOT m = ANY (new_months)
        UNION ALL SELECT new_first, 0, 1 WHERE new_first IS DISTINCT FROM old_first AND new_first IS NOT NULL
        UNION ALL SELECT old_first, 0, -1 WHERE new_first IS DISTINCT FROM old_first AND old_first IS NOT NULL
      ) d (month, paying, fresh) GROUP BY month
      ON CONFLICT (month) DO UPDATE SET paying_customers = s.paying_customers + excluded.paying_customers, new_customers = s.new_customers + excluded.new_customers;
    UPDATE statistics_customers SET paying_months = new_months, first_paid_month = new_first WHERE user_id = customer;
  END IF;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION statistics_invoice_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One writer of the rollup at a time, until its transaction ends: the customer's months are then read
  -- after the previous writer's commit (READ COMMITTED takes a fresh snapshot per statement), and two
  -- writers can never lock the same month rows in opposite orders (a deadlock). Invoice writes are rare
  -- and short; the invoice numbers already serialise them per kind (invoice_counters).
  PERFORM pg_advisory_xact_lock(20021);
  IF TG_OP <> 'INSERT' THEN PERFORM statistics_refresh_customer(OLD.user_id); END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.user_id IS DISTINCT FROM OLD.user_id) THEN PERFORM statistics_refresh_customer(NEW.user_id); END IF;
  IF TG_OP <> 'INSERT' THEN PERFORM statistics_add_invoice(OLD, -1); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM statistics_add_invoice(NEW, 1); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Only the columns the figures depend on (not mailed_at, which the mail job sets).
CREATE TRIGGER statistics_invoice_changed AFTER INSERT OR DELETE OR UPDATE OF kind, user_id, issue_date, document, paid_at, credited_at ON invoices
  FOR EACH ROW EXECUTE FUNCTION statistics_invoice_changed();--> statement-breakpoint
-- The rollup from scratch: the backfill below, a bulk load with the trigger disabled, and the tests' check.
CREATE OR REPLACE FUNCTION statistics_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM statistics_months;
  DELETE FROM statistics_mrr_changes;
  DELETE FROM statistics_customers;
  INSERT INTO statistics_customers (user_id, paying_months, first_paid_month)
    SELECT u.user_id, coalesce(p.months, '{}'), f.first_month
    FROM (SELECT DISTINCT user_id FROM invoices) u
    LEFT JOIN (
      SELECT i.user_id, array_agg(DISTINCT m ORDER BY m) AS months
      FROM invoices i, generate_series(i.service_month, statistics_term_end(i.service_month, i.service_end_month, i.credited_at) - 1) m
      WHERE i.kind = 'invoice' AND i.recurring_net_cents > 0 GROUP BY i.user_id
    ) p ON p.user_id = u.user_id
    LEFT JOIN (SELECT user_id, min(issue_month) AS first_month FROM invoices WHERE kind = 'invoice' AND paid_at IS NOT NULL GROUP BY user_id) f ON f.user_id = u.user_id;
  INSERT INTO statistics_months (month, revenue_cents, paying_customers, new_customers)
    SELECT month, sum(revenue), sum(paying), sum(fresh) FROM (
      SELECT issue_month, sum(CASE WHEN kind = 'invoice' THEN net_cents ELSE -net_cents END), 0, 0 FROM invoices GROUP BY issue_month
      UNION ALL SELECT m, 0, count(*), 0 FROM statistics_customers, unnest(paying_months) m GROUP BY m
      UNION ALL SELECT first_paid_month, 0, 0, count(*) FROM statistics_customers WHERE first_paid_month IS NOT NULL GROUP BY first_paid_month
    ) x (month, revenue, paying, fresh) GROUP BY month;
  INSERT INTO statistics_mrr_changes (month, term_months, recurring_cents)
    WITH terms AS (
      SELECT * FROM (
        SELECT service_month, term_months, recurring_net_cents, statistics_term_end(service_month, service_end_month, credited_at) AS term_end
        FROM invoices WHERE kind = 'invoice' AND recurring_net_cents > 0
      ) t WHERE term_end > service_month
    )
    SELECT month, term_months, sum(cents) FROM (
      SELECT service_month, term_months, recurring_net_cents FROM terms
      UNION ALL SELECT term_end, term_months, -recurring_net_cents FROM terms
    ) x (month, term_months, cents) GROUP BY month, term_months;
END $$;--> statement-breakpoint
SELECT statistics_rebuild();
