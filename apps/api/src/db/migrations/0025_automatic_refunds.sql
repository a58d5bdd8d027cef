ALTER TABLE "orders" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_id" text;--> statement-breakpoint
ALTER TABLE "sim_checkout_sessions" ADD COLUMN "refund_id" text;--> statement-breakpoint
ALTER TABLE "sim_checkout_sessions" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;