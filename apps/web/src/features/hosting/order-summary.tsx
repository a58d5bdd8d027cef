import { formatEuro, formatNumberDe, type OrderDetail } from '@hp/contract';
import type { OrderSummary } from '../../lib/product-views.tsx';
import { included } from '../../components/billing/order-lines.tsx';

const mb = (n: number) => `${formatNumberDe(n)} MB`;

/** A web hosting order on the order page: the plan at its net price per month and what it includes. */
export function hostingOrderSummary({ configuration: h, perMonth }: OrderDetail): OrderSummary | null {
  if (h.product !== 'webhosting') return null;
  return {
    title: 'Paket-Details',
    caption: 'Paket-Details, im Paketpreis enthalten',
    priceHeader: 'Netto pro Monat',
    lines: [
      { label: 'Tarif', detail: `Webhosting ${h.planName}`, price: formatEuro(perMonth.netCents) },
      { label: 'Domain', detail: h.primaryDomain, price: included },
      { label: 'Speicher', detail: mb(h.storageMb), price: included },
      { label: 'Traffic', detail: `${mb(h.trafficMb)} pro Monat`, price: included },
      { label: 'Datenbanken', detail: `${h.databases} MySQL`, price: included },
      { label: 'Domains', detail: `bis zu ${h.domains}`, price: included },
      { label: 'PHP', detail: h.phpVersions.join(', '), price: included },
    ],
  };
}
