import { Globe } from 'lucide-react';
import type { ProductView } from '../../lib/product-views.tsx';

/** Domains on the neutral pages. */
export const domainView: ProductView = {
  kind: 'domain',
  openLabel: 'Zur Domain',
  icon: Globe,
  openPath: (order) => order.subscriptionPath,
  paidLead: (kind) => (kind === 'new'
    ? 'Vielen Dank für Ihre Bestellung. Wir beauftragen jetzt die Vergabestelle; den Stand sehen Sie bei Ihrer Domain.'
    : 'Vielen Dank. Wir verlängern Ihre Domain jetzt bei der Vergabestelle.'),
};
