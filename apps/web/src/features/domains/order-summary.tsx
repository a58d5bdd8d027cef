import { formatEuro, type OrderDetail } from '@hp/contract';
import type { OrderSummary } from '../../lib/product-views.tsx';
import { included } from '../../components/billing/order-lines.tsx';

const ACTION_LABEL = { register: 'Registrierung', transfer: 'Transfer zu uns', renew: 'Verlängerung' } as const;

/** A domain order on the order page: the name at its net price for the whole term (domains have no monthly price). */
export function domainOrderSummary({ configuration: d, netCents }: OrderDetail): OrderSummary | null {
  if (d.product !== 'domain') return null;
  return {
    title: 'Domain-Details',
    caption: 'Domain-Details, Preis für die gesamte Laufzeit (netto)',
    priceHeader: 'Netto gesamt',
    lines: [
      { label: 'Domain', detail: d.unicode === d.domain ? d.domain : `${d.unicode} (${d.domain})`, price: formatEuro(netCents) },
      { label: 'Auftrag', detail: `${ACTION_LABEL[d.action]}${d.premium ? ' · Premium-Domain' : ''}`, price: included },
      { label: 'Laufzeit', detail: `${d.years} ${d.years === 1 ? 'Jahr' : 'Jahre'}`, price: included },
    ],
  };
}
