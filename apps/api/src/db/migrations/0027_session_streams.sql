-- Open event streams end when their session does (logout, lock, deletion, role change), not only at the
-- next event or when the access token runs out. The payload names the account only; the API instance
-- holding its streams checks which sessions are still valid. One notification per account and
-- transaction: identical payloads are sent once, so revoking all sessions of an account is one message.
CREATE FUNCTION "hp_notify_sessions_ended"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hp_events', json_build_object('type', 'sessions.ended', 'userId', COALESCE(NEW.user_id, OLD.user_id))::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "hp_notify_account_access_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hp_events', json_build_object('type', 'sessions.ended', 'userId', NEW.id)::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "sessions_notify_revoked" AFTER UPDATE OF "revoked_at" ON "sessions"
  FOR EACH ROW WHEN (OLD."revoked_at" IS NULL AND NEW."revoked_at" IS NOT NULL)
  EXECUTE FUNCTION "hp_notify_sessions_ended"();--> statement-breakpoint
CREATE TRIGGER "sessions_notify_deleted" AFTER DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "hp_notify_sessions_ended"();--> statement-breakpoint
CREATE TRIGGER "users_notify_access_changed" AFTER UPDATE OF "disabled_at", "role" ON "users"
  FOR EACH ROW WHEN (OLD."disabled_at" IS DISTINCT FROM NEW."disabled_at" OR OLD."role" IS DISTINCT FROM NEW."role")
  EXECUTE FUNCTION "hp_notify_account_access_changed"();
