import type { HostingDetail } from '@hp/contract';
import { Card } from '../../../components/ui/card.tsx';

/** A tab that needs the panel while the package is not active or the panel cannot be reached. */
export function SiteUnavailable({ detail }: { detail: HostingDetail }) {
  const text = detail.status === 'provisioning'
    ? 'Dieser Bereich steht zur Verfügung, sobald Ihr Paket eingerichtet ist.'
    : detail.status === 'active'
      ? detail.panelError ?? 'Das Hosting-Panel ist derzeit nicht erreichbar. Bitte versuchen Sie es später erneut.'
      : 'Dieser Bereich steht nur für aktive Pakete zur Verfügung.';
  return <Card className="px-5 py-8 text-center text-slate-700">{text}</Card>;
}
