-- Trigram indexes for the staff search ("contains"); pg_trgm is a trusted extension (PostgreSQL ≥ 13), PGlite loads it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_attachments" (
	"file_id" uuid PRIMARY KEY NOT NULL,
	"ticket_id" uuid NOT NULL,
	"message_id" uuid,
	"uploaded_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_presence" (
	"ticket_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"typing" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ticket_presence_ticket_id_user_id_pk" PRIMARY KEY("ticket_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "ticket_secret_openings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"secret_id" uuid NOT NULL,
	"staff_id" uuid NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_secrets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL,
	"label" text NOT NULL,
	"sealed" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"wiped_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ticket_attachments" ADD CONSTRAINT "ticket_attachments_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_attachments" ADD CONSTRAINT "ticket_attachments_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_attachments" ADD CONSTRAINT "ticket_attachments_message_id_ticket_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."ticket_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_attachments" ADD CONSTRAINT "ticket_attachments_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_presence" ADD CONSTRAINT "ticket_presence_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_presence" ADD CONSTRAINT "ticket_presence_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_secret_openings" ADD CONSTRAINT "ticket_secret_openings_secret_id_ticket_secrets_id_fk" FOREIGN KEY ("secret_id") REFERENCES "public"."ticket_secrets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_secret_openings" ADD CONSTRAINT "ticket_secret_openings_staff_id_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_secrets" ADD CONSTRAINT "ticket_secrets_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_secrets" ADD CONSTRAINT "ticket_secrets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_attachments_message_idx" ON "ticket_attachments" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "ticket_attachments_pending_idx" ON "ticket_attachments" USING btree ("created_at") WHERE message_id is null;--> statement-breakpoint
CREATE INDEX "ticket_secret_openings_secret_idx" ON "ticket_secret_openings" USING btree ("secret_id","opened_at");--> statement-breakpoint
CREATE INDEX "ticket_secrets_ticket_idx" ON "ticket_secrets" USING btree ("ticket_id","created_at");--> statement-breakpoint
CREATE INDEX "users_username_trgm_idx" ON "users" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tickets_title_trgm_idx" ON "tickets" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
-- Live events (docs/decisions/011, 014, 015). Ids only, never a secret or a file.
-- A confidential field added or wiped → 'ticket.changed' (the customer sees its label and state).
CREATE FUNCTION "hp_notify_ticket_secret"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hp_events', json_build_object('type', 'ticket.changed', 'ticketId', NEW.ticket_id)::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "ticket_secrets_notify" AFTER INSERT OR UPDATE OF "sealed" ON "ticket_secrets"
  FOR EACH ROW EXECUTE FUNCTION "hp_notify_ticket_secret"();--> statement-breakpoint
-- Staff presence: someone came, left or started/stopped typing → 'ticket.presence' (staff only).
-- Heartbeats that only move expires_at stay silent.
CREATE FUNCTION "hp_notify_ticket_presence"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hp_events', json_build_object('type', 'ticket.presence', 'ticketId', COALESCE(NEW.ticket_id, OLD.ticket_id))::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "ticket_presence_notify_insert_delete" AFTER INSERT OR DELETE ON "ticket_presence"
  FOR EACH ROW EXECUTE FUNCTION "hp_notify_ticket_presence"();--> statement-breakpoint
CREATE TRIGGER "ticket_presence_notify_update" AFTER UPDATE OF "typing" ON "ticket_presence"
  FOR EACH ROW WHEN (OLD."typing" IS DISTINCT FROM NEW."typing") EXECUTE FUNCTION "hp_notify_ticket_presence"();
