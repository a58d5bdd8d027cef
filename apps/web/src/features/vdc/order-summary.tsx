import { formatEuro, formatNumberDe, type OrderDetail } from '@hp/contract';
import type { OrderSummary } from '../../lib/product-views.tsx';
import { included } from '../../components/billing/order-lines.tsx';

/** A virtual data center order on the order page: the pool's resources and what it includes. */
export function vdcOrderSummary({ configuration: c, perMonth }: OrderDetail): OrderSummary | null {
  if (c.product !== 'vdc') return null;
  return {
    title: 'Ressourcen-Pool',
    caption: c.fromOffer ? 'Ressourcen-Pool laut Angebot' : 'Ressourcen-Pool, im Poolpreis enthalten',
    priceHeader: 'Netto pro Monat',
    lines: [
      { label: 'Virtual Data Center', detail: c.name, price: formatEuro(perMonth.netCents) },
      { label: 'vCPU', detail: `${c.cpu} Kerne`, price: included },
      { label: 'RAM', detail: `${c.ram} GB`, price: included },
      { label: 'Speicher', detail: `${formatNumberDe(c.storage)} GB`, price: included },
      { label: 'Öffentliche IPv4-Adressen', detail: String(c.ipv4), price: included },
      { label: 'ISO-Bibliothek', detail: `${c.isoLibraryGb} GB`, price: included },
      { label: 'VMs', detail: `bis zu ${c.maxVms}, privates Netzwerk inklusive`, price: included },
    ],
  };
}
