ALTER TABLE "one_time_codes" ADD COLUMN "new_email" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "rotated_at" timestamp with time zone;