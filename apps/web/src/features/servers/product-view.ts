import { Server } from 'lucide-react';
import type { ProductView } from '../../lib/product-views.tsx';
import { paths } from '../../config/paths.ts';

/** The root server on the neutral pages: the dashboard shows the new server's setup progress. */
export const rootServerView: ProductView = {
  kind: 'root_server',
  openLabel: 'Zum Server',
  icon: Server,
  openPath: (order) => (order.subscriptionPath ? paths.dashboard.root : null),
  paidLead: (kind) => (kind === 'new'
    ? 'Vielen Dank für Ihre Bestellung. Ihr Server wird jetzt eingerichtet; Sie finden ihn gleich in Ihrem Kundenbereich.'
    : 'Vielen Dank. Die Änderungen an Ihrem Server werden jetzt übernommen.'),
};
