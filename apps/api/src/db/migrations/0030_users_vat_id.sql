ALTER TABLE "users" ADD COLUMN "business" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "vat_id" text;