import { TerminalSquare } from 'lucide-react';
import { toast } from 'sonner';
import type { ServerDetail } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { paths } from '../../../config/paths.ts';

export const POPUP_BLOCKED_MESSAGE = 'Bitte erlauben Sie Pop-ups für diese Seite, um die Konsole zu öffnen.';

/**
 * Opens the server console in a pop-up window (spec). The window is opened synchronously in the click
 * handler, so pop-up blockers see the user's click; the console page then fetches its own short-lived,
 * single-use console token (a token never travels between windows or through a URL).
 */
export function ConsoleButton({ detail, status }: { detail: ServerDetail; status: string }) {
  const online = status === 'online';
  const open = () => {
    const popup = window.open(paths.console(detail.id), `console-${detail.id}`, 'popup,width=900,height=600');
    if (!popup) {
      toast.warning(POPUP_BLOCKED_MESSAGE, { duration: 10_000 });
      return;
    }
    popup.focus();
  };
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={!online}
      title={online ? 'Konsole in einem neuen Fenster öffnen' : 'Die Konsole ist nur verfügbar, wenn der Server läuft.'}
      onClick={open}
    >
      <TerminalSquare className="size-4" aria-hidden="true" /> Konsole
    </Button>
  );
}
