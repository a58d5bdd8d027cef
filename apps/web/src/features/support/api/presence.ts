import { useCallback, useEffect, useRef } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TicketPresence, TicketPresenceInput } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { fetchWithSession } from '../../../lib/session.ts';
import { staffTicketKeys } from './keys.ts';

/** How often an open, visible supporter view says "still here" (the server forgets after 30 s). */
export const PRESENCE_HEARTBEAT_MS = 10_000;
/** Typing ends this long after the last keystroke (or at once when the message is sent). */
export const TYPING_IDLE_MS = 4_000;

const presenceUrl = (id: string) => `/staff/tickets/${encodeURIComponent(id)}/presence`;

// GET /api/staff/tickets/:id/presence — the other staff members in this ticket view.
export const getTicketPresence = (id: string, signal?: AbortSignal) => api<TicketPresence>(presenceUrl(id), { signal });
export const ticketPresenceQueryOptions = (id: string) => queryOptions({
  queryKey: staffTicketKeys.presence(id),
  queryFn: ({ signal }) => getTicketPresence(id, signal),
  // The live event `ticket.presence` refetches at once; this catches a viewer whose time ran out
  // while nobody's heartbeat deleted the row (no event for that).
  refetchInterval: PRESENCE_HEARTBEAT_MS,
  retry: false,
});
export const useTicketPresence = (id: string, enabled: boolean) => useQuery({ ...ticketPresenceQueryOptions(id), enabled });

// PUT /api/staff/tickets/:id/presence — heartbeat; answers with the others, like the GET.
export const sendPresenceHeartbeat = (id: string, input: TicketPresenceInput) => api<TicketPresence>(presenceUrl(id), { method: 'PUT', body: input });

// DELETE /api/staff/tickets/:id/presence — leaving; keepalive so it still goes out while the page unloads.
export const leaveTicket = (id: string) =>
  fetchWithSession(`/api${presenceUrl(id)}`, { method: 'DELETE', headers: { accept: 'application/json' }, keepalive: true }).catch(() => undefined);

/**
 * Announces the signed-in staff member in a ticket view while it is open and the tab visible: at once,
 * every 10 s and whenever typing starts or stops; leaves on unmount and on pagehide. Returns the
 * composer's `onDraftChange`: a non-empty draft is typing until 4 s after the last change, an empty
 * one (sent or cleared) ends it at once. Failures are ignored: presence only warns.
 */
export function usePresenceHeartbeat(ticketId: string, enabled: boolean) {
  const queryClient = useQueryClient();
  const typing = useRef(false);
  const idleTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const beat = useCallback(() => {
    if (document.visibilityState !== 'visible') return;
    sendPresenceHeartbeat(ticketId, { typing: typing.current })
      .then((presence) => queryClient.setQueryData(staffTicketKeys.presence(ticketId), presence))
      .catch(() => undefined);
  }, [queryClient, ticketId]);

  useEffect(() => {
    if (!enabled) return;
    const leave = () => void leaveTicket(ticketId);
    beat();
    const timer = setInterval(beat, PRESENCE_HEARTBEAT_MS);
    // Back in view (tab switched back, page restored from the back/forward cache): say so at once.
    document.addEventListener('visibilitychange', beat);
    window.addEventListener('pageshow', beat);
    window.addEventListener('pagehide', leave);
    return () => {
      clearInterval(timer);
      clearTimeout(idleTimer.current);
      document.removeEventListener('visibilitychange', beat);
      window.removeEventListener('pageshow', beat);
      window.removeEventListener('pagehide', leave);
      leave();
    };
  }, [beat, enabled, ticketId]);

  const setTyping = useCallback((next: boolean) => {
    if (typing.current === next) return;
    typing.current = next;
    if (enabled) beat();
  }, [beat, enabled]);

  return useCallback((draft: string) => {
    clearTimeout(idleTimer.current);
    if (!draft.trim()) {
      setTyping(false);
      return;
    }
    setTyping(true);
    idleTimer.current = setTimeout(() => setTyping(false), TYPING_IDLE_MS);
  }, [setTyping]);
}
