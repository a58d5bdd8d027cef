import { CheckCircle2 } from 'lucide-react';
import type { HostingDetail } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Modal } from '../../../components/ui/modal.tsx';

/**
 * "Apache neustarten" (spec dialog), honest: the panel has no restart call, and none is needed, because
 * the web server reloads its configuration by itself about a minute after each change. So the dialog
 * explains that and shows whether changes are still waiting; it offers no button that pretends to restart.
 */
export function RestartDialog({ detail, open, onOpenChange }: { detail: HostingDetail; open: boolean; onOpenChange: (open: boolean) => void }) {
  const pending = detail.site?.pendingChanges ?? false;
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Apache neustarten">
      <div className="space-y-4 text-sm text-slate-800">
        <p>
          Ein Neustart ist nicht nötig: Der Webserver (Apache) lädt seine Konfiguration nach jeder Änderung selbst neu, etwa eine
          Minute nachdem Sie sie gespeichert haben. {detail.panelName} bietet deshalb keinen eigenen Neustart-Befehl an, und Ihre
          Website bleibt dabei erreichbar.
        </p>
        <div aria-live="polite">
          {detail.site === null ? (
            <Alert tone="warning">{detail.panelError ?? 'Der Zustand des Webservers ist gerade nicht abrufbar.'}</Alert>
          ) : pending ? (
            <Alert tone="info" className="flex items-center gap-2">
              <span className="size-4 shrink-0 animate-spin rounded-full border-2 border-current border-t-transparent" aria-hidden="true" />
              Es stehen noch Änderungen aus. Der Webserver übernimmt sie in etwa einer Minute.
            </Alert>
          ) : (
            <Alert tone="success" className="flex items-center gap-2">
              <CheckCircle2 className="size-4 shrink-0" aria-hidden="true" /> Alle Änderungen sind übernommen. Es ist nichts zu tun.
            </Alert>
          )}
        </div>
        <div className="flex justify-end pt-1">
          <Button variant="outline" onClick={() => onOpenChange(false)}>Schließen</Button>
        </div>
      </div>
    </Modal>
  );
}
