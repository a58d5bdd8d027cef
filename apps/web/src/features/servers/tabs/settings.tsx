import type { ServerDetail } from '@hp/contract';
import { Alert } from '../../../components/ui/card.tsx';

// Placeholder: replaced by the tab's implementation.
export function SettingsTab(_props: { detail: ServerDetail }) {
  return <Alert tone="info">Dieser Bereich wird gerade freigeschaltet. Bis dahin hilft Ihnen unser Support über ein Ticket weiter.</Alert>;
}
