import { useState } from 'react';
import { toast } from 'sonner';
import type { HostingDetail } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useInstallApp } from '../api/hosting.ts';
import { errorText, WEBSITE_TYPE_LABEL } from './format.ts';

type WebsiteType = HostingDetail['websiteType'];
const TYPES: WebsiteType[] = ['standard', 'wordpress', 'joomla'];

/**
 * "Website-Typ ändern" (spec dialog): Standard-Website, WordPress or Joomla, with the warning that content
 * may be overwritten. WordPress and Joomla start the one-click install, which only some panels offer;
 * a standard website needs no install (the customer uploads files by FTP).
 */
export function WebsiteTypeDialog({ detail, open, onOpenChange }: { detail: HostingDetail; open: boolean; onOpenChange: (open: boolean) => void }) {
  const install = useInstallApp(detail.id);
  const [chosen, setChosen] = useState<WebsiteType>(detail.websiteType);
  const close = (next: boolean) => {
    if (!next) { setChosen(detail.websiteType); install.reset(); }
    onOpenChange(next);
  };
  const canInstall = detail.capabilities.apps && chosen !== 'standard' && chosen !== detail.websiteType && detail.site !== null;
  const submit = async () => {
    if (chosen === 'standard') return;
    try {
      const res = await install.mutateAsync({ kind: chosen });
      toast.success(res.message ?? `${WEBSITE_TYPE_LABEL[chosen]} wird installiert.`);
      close(false);
    } catch {
      // shown below, next to the button
    }
  };
  return (
    <Modal open={open} onOpenChange={close} title="Website-Typ ändern" description={`Aktuell: ${WEBSITE_TYPE_LABEL[detail.websiteType]}`}>
      <div className="space-y-4">
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Website-Typ</legend>
          <div className="mt-2 space-y-2">
            {TYPES.map((t) => (
              <label key={t} className="flex cursor-pointer items-center gap-3 rounded-lg border border-slate-200 px-4 py-3 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
                <input type="radio" name="website-type" value={t} className="size-4" checked={chosen === t} onChange={() => setChosen(t)} />
                <span className="font-medium text-slate-900">{WEBSITE_TYPE_LABEL[t]}</span>
                {t === detail.websiteType && <span className="text-slate-600">(aktuell)</span>}
              </label>
            ))}
          </div>
        </fieldset>
        <div aria-live="polite" className="space-y-3">
          {!detail.capabilities.apps ? (
            <Alert tone="info">
              {detail.panelName} bietet keinen Ein-Klick-Installer an. Sie können WordPress oder Joomla selbst installieren: Laden Sie
              die Dateien per FTP in den Ordner Ihrer Website hoch und legen Sie unter „Datenbanken“ eine Datenbank dafür an.
            </Alert>
          ) : chosen === 'standard' ? (
            chosen !== detail.websiteType && (
              <Alert tone="info">
                Für eine Standard-Website ist keine Installation nötig. Die installierte Anwendung wird dabei nicht entfernt; löschen
                Sie ihre Dateien bei Bedarf per FTP.
              </Alert>
            )
          ) : chosen !== detail.websiteType && (
            <Alert tone="warning">Achtung: Bei der Installation können vorhandene Inhalte Ihrer Website überschrieben werden. Sichern Sie wichtige Dateien vorher.</Alert>
          )}
          {install.isError && <Alert tone="error">{errorText(install.error, 'Die Installation konnte nicht gestartet werden.')}</Alert>}
        </div>
        <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => close(false)} disabled={install.isPending}>Abbrechen</Button>
          {detail.capabilities.apps && (
            <Button onClick={() => void submit()} loading={install.isPending} disabled={!canInstall}>
              {chosen === 'standard' ? 'Übernehmen' : `${WEBSITE_TYPE_LABEL[chosen]} installieren`}
            </Button>
          )}
        </div>
      </div>
    </Modal>
  );
}
