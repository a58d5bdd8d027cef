import { Cloud } from 'lucide-react';
import type { ProductView } from '../../lib/product-views.tsx';

/** Cloud storage on the neutral pages. */
export const storageView: ProductView = {
  kind: 'cloud_storage',
  openLabel: 'Zum Cloud-Speicher',
  icon: Cloud,
  openPath: (order) => order.subscriptionPath,
  paidLead: (kind) => (kind === 'new'
    ? 'Vielen Dank für Ihre Bestellung. Ihr Cloud-Speicher wird jetzt eingerichtet; das dauert nur einen Moment.'
    : 'Vielen Dank. Ihr Cloud-Speicher wurde verlängert; ein neuer Tarif gilt ab sofort.'),
};
