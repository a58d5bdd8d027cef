CREATE TABLE "invoice_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"method" text NOT NULL,
	"paid_on" text NOT NULL,
	"recorded_by" uuid,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "source" text DEFAULT 'order' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "created_by" uuid;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "credited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_payments_invoice_idx" ON "invoice_payments" USING btree ("invoice_id");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_unpaid_idx" ON "invoices" USING btree ("due_date") WHERE kind = 'invoice' and paid_at is null and credited_at is null;--> statement-breakpoint
-- Existing invoices were all prepaid by card at checkout: paid at issue, one card payment each.
UPDATE "invoices" SET "paid_at" = "created_at" WHERE "kind" = 'invoice' AND ("document"->'totals'->>'dueCents')::int = 0;--> statement-breakpoint
INSERT INTO "invoice_payments" ("invoice_id", "amount_cents", "method", "paid_on", "created_at")
  SELECT "id", "gross_cents", 'card', "issue_date", "created_at" FROM "invoices" WHERE "kind" = 'invoice' AND "paid_at" IS NOT NULL;--> statement-breakpoint
UPDATE "invoices" AS i SET "credited_at" = c."created_at" FROM "invoices" AS c WHERE c."kind" = 'credit_note' AND c."corrects_invoice_id" = i."id";
