-- Public data kept in memory by every API instance (docs/decisions/029): a committed change to the status
-- page or the changelog, by any code path, is announced on 'hp_events' so each instance drops its copy.
-- One notification per statement and topic (identical payloads within a transaction are sent once).
CREATE FUNCTION "hp_notify_public_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hp_events', json_build_object('type', 'public.changed', 'topic', TG_ARGV[0])::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "status_services_notify" AFTER INSERT OR UPDATE OR DELETE ON "status_services"
  FOR EACH STATEMENT EXECUTE FUNCTION "hp_notify_public_changed"('status');--> statement-breakpoint
CREATE TRIGGER "status_incidents_notify" AFTER INSERT OR UPDATE OR DELETE ON "status_incidents"
  FOR EACH STATEMENT EXECUTE FUNCTION "hp_notify_public_changed"('status');--> statement-breakpoint
CREATE TRIGGER "status_incident_updates_notify" AFTER INSERT OR UPDATE OR DELETE ON "status_incident_updates"
  FOR EACH STATEMENT EXECUTE FUNCTION "hp_notify_public_changed"('status');--> statement-breakpoint
CREATE TRIGGER "status_maintenances_notify" AFTER INSERT OR UPDATE OR DELETE ON "status_maintenances"
  FOR EACH STATEMENT EXECUTE FUNCTION "hp_notify_public_changed"('status');--> statement-breakpoint
CREATE TRIGGER "changelog_entries_notify" AFTER INSERT OR UPDATE OR DELETE ON "changelog_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "hp_notify_public_changed"('changelog');
