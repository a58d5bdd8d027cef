CREATE TABLE "vat_id_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"country" text NOT NULL,
	"vat_id" text NOT NULL,
	"status" text NOT NULL,
	"service" text NOT NULL,
	"consultation_number" text,
	"matches" jsonb,
	"message" text,
	"checked_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vat_id_checks" ADD CONSTRAINT "vat_id_checks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vat_id_checks_user_idx" ON "vat_id_checks" USING btree ("user_id","checked_at");