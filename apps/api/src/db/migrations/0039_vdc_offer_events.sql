-- Live events (docs/decisions/011): an offer in a "VDC-Anfrage" ticket was made, accepted (paid),
-- withdrawn or expired → 'ticket.changed' for its ticket, so the customer's and staff's ticket pages show
-- its state without a reload. Ids only.
CREATE FUNCTION "hp_notify_vdc_offer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hp_events', json_build_object('type', 'ticket.changed', 'ticketId', NEW.ticket_id)::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "vdc_offers_notify_insert" AFTER INSERT ON "vdc_offers"
  FOR EACH ROW EXECUTE FUNCTION "hp_notify_vdc_offer"();--> statement-breakpoint
CREATE TRIGGER "vdc_offers_notify_status" AFTER UPDATE OF "status" ON "vdc_offers"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "hp_notify_vdc_offer"();
