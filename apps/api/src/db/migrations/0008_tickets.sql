CREATE TABLE "ticket_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"ticket_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"from_staff" boolean NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"server_id" uuid,
	"assignee_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"waiting_since" timestamp with time zone,
	"first_response_at" timestamp with time zone,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ticket_messages" ADD CONSTRAINT "ticket_messages_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_messages" ADD CONSTRAINT "ticket_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_messages_ticket_seq_idx" ON "ticket_messages" USING btree ("ticket_id","seq");--> statement-breakpoint
CREATE INDEX "tickets_customer_idx" ON "tickets" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "tickets_unassigned_idx" ON "tickets" USING btree ("created_at") WHERE assignee_id is null and status <> 'closed';--> statement-breakpoint
CREATE INDEX "tickets_assignee_idx" ON "tickets" USING btree ("assignee_id","created_at");--> statement-breakpoint
CREATE INDEX "tickets_status_type_idx" ON "tickets" USING btree ("status","type");--> statement-breakpoint
CREATE INDEX "tickets_waiting_idx" ON "tickets" USING btree ("waiting_since");--> statement-breakpoint
-- Live events of tickets (docs/decisions/011, 014): a ticket's status, assignee or title changed, or a
-- chat message arrived → 'ticket.changed' (its customer and staff). An internal note → 'ticket.noted',
-- which the events module delivers to staff only, so a note never even announces itself to a customer.
CREATE FUNCTION "hp_notify_ticket_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hp_events', json_build_object('type', 'ticket.changed', 'ticketId', NEW.id)::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "hp_notify_ticket_message"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hp_events', json_build_object('type', CASE WHEN NEW.internal THEN 'ticket.noted' ELSE 'ticket.changed' END, 'ticketId', NEW.ticket_id)::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "tickets_notify_insert" AFTER INSERT ON "tickets"
  FOR EACH ROW EXECUTE FUNCTION "hp_notify_ticket_changed"();--> statement-breakpoint
CREATE TRIGGER "tickets_notify_update" AFTER UPDATE OF "status", "assignee_id", "title" ON "tickets"
  FOR EACH ROW WHEN (
    OLD."status" IS DISTINCT FROM NEW."status" OR OLD."assignee_id" IS DISTINCT FROM NEW."assignee_id" OR OLD."title" IS DISTINCT FROM NEW."title"
  ) EXECUTE FUNCTION "hp_notify_ticket_changed"();--> statement-breakpoint
CREATE TRIGGER "ticket_messages_notify_insert" AFTER INSERT ON "ticket_messages"
  FOR EACH ROW EXECUTE FUNCTION "hp_notify_ticket_message"();
