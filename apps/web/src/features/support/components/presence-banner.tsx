import { Eye, PenLine } from 'lucide-react';
import { ticketPresenceText } from '@hp/contract';
import { useTicketPresence } from '../api/presence.ts';

/**
 * The collision warning of the supporter view: one line per other staff member in this ticket, "Anna
 * sieht sich dieses Ticket an" or "Anna schreibt …". It only informs; nothing on the page is disabled.
 * The live region is always there (empty when alone), so a screen reader hears who arrives.
 */
export function PresenceBanner({ ticketId, enabled }: { ticketId: string; enabled: boolean }) {
  const presence = useTicketPresence(ticketId, enabled);
  const viewers = presence.data?.viewers ?? [];
  return (
    <div role="status" aria-live="polite">
      {viewers.length > 0 && (
        <ul aria-label="Weitere Mitarbeiter in diesem Ticket" className="mt-3 flex flex-col gap-1 rounded-lg border border-amber-200 bg-amber-50 px-4 py-2.5 text-sm text-amber-900">
          {viewers.map((viewer) => {
            const Icon = viewer.typing ? PenLine : Eye;
            return (
              <li key={viewer.name} className="flex min-w-0 items-start gap-2" data-typing={viewer.typing || undefined}>
                <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <span className="min-w-0 break-words">{ticketPresenceText(viewer)}</span>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
