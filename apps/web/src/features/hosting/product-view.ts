import { Globe } from 'lucide-react';
import type { ProductView } from '../../lib/product-views.tsx';

/** Web hosting on the neutral pages. */
export const hostingView: ProductView = {
  kind: 'webhosting',
  openLabel: 'Zum Hosting-Paket',
  icon: Globe,
  openPath: (order) => order.subscriptionPath,
  paidLead: (kind) => (kind === 'new'
    ? 'Vielen Dank für Ihre Bestellung. Ihr Hosting-Paket wird jetzt eingerichtet; das dauert etwa eine Minute.'
    : 'Vielen Dank. Die Laufzeit Ihres Hosting-Pakets wurde verlängert.'),
};
