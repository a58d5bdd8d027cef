-- Live events (docs/decisions/011): every committed change a customer or staff member can see on a
-- server page is announced on the channel 'hp_events', whichever code path or instance wrote it.
-- NOTIFY is transactional: it is delivered on commit and dropped on rollback. Payloads carry ids only
-- (far below the 8000-byte limit); identical payloads within one transaction are sent once.
CREATE FUNCTION "hp_notify_server_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hp_events', json_build_object('type', 'server.changed', 'serverId', COALESCE(NEW.id, OLD.id))::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "hp_notify_task_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hp_events', json_build_object('type', 'task.changed', 'serverId', NEW.server_id, 'taskId', NEW.id)::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "servers_notify_insert" AFTER INSERT ON "servers"
  FOR EACH ROW EXECUTE FUNCTION "hp_notify_server_changed"();--> statement-breakpoint
CREATE TRIGGER "servers_notify_update" AFTER UPDATE OF "status", "status_message", "busy_task_id", "deleted_at", "name", "os", "cpu_cores", "ram_gb", "storage_gb", "expires_at", "suspended_at", "owner_id", "firewall_enabled" ON "servers"
  FOR EACH ROW WHEN (
    OLD."status" IS DISTINCT FROM NEW."status" OR OLD."status_message" IS DISTINCT FROM NEW."status_message"
    OR OLD."busy_task_id" IS DISTINCT FROM NEW."busy_task_id" OR OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at"
    OR OLD."name" IS DISTINCT FROM NEW."name" OR OLD."os" IS DISTINCT FROM NEW."os"
    OR OLD."cpu_cores" IS DISTINCT FROM NEW."cpu_cores" OR OLD."ram_gb" IS DISTINCT FROM NEW."ram_gb" OR OLD."storage_gb" IS DISTINCT FROM NEW."storage_gb"
    OR OLD."expires_at" IS DISTINCT FROM NEW."expires_at" OR OLD."suspended_at" IS DISTINCT FROM NEW."suspended_at"
    OR OLD."owner_id" IS DISTINCT FROM NEW."owner_id" OR OLD."firewall_enabled" IS DISTINCT FROM NEW."firewall_enabled"
  ) EXECUTE FUNCTION "hp_notify_server_changed"();--> statement-breakpoint
CREATE TRIGGER "server_tasks_notify_insert" AFTER INSERT ON "server_tasks"
  FOR EACH ROW EXECUTE FUNCTION "hp_notify_task_changed"();--> statement-breakpoint
CREATE TRIGGER "server_tasks_notify_update" AFTER UPDATE OF "status", "progress" ON "server_tasks"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."progress" IS DISTINCT FROM NEW."progress")
  EXECUTE FUNCTION "hp_notify_task_changed"();
--> statement-breakpoint
CREATE FUNCTION "hp_notify_server_access_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hp_events', json_build_object('type', 'server.changed', 'serverId', COALESCE(NEW.server_id, OLD.server_id))::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "server_access_notify" AFTER INSERT OR DELETE ON "server_access"
  FOR EACH ROW EXECUTE FUNCTION "hp_notify_server_access_changed"();
