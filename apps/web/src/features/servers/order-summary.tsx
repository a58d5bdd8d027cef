import { formatEuro, type OrderDetail } from '@hp/contract';
import type { OrderSummary } from '../../lib/product-views.tsx';

/** A root server order on the order page: the configuration, each part at its charged net price per month. */
export function rootServerOrderSummary({ configuration: c }: OrderDetail): OrderSummary | null {
  if (c.product !== 'root_server') return null;
  return {
    title: 'Server Details',
    caption: 'Server Details, Preise pro Monat',
    priceHeader: 'Netto pro Monat',
    lines: [
      { label: 'Standort', detail: c.location, price: <>{formatEuro(0)} <span className="text-slate-600">(inklusive)</span></> },
      { label: 'CPU', detail: `${c.cpu.cores} ${c.cpu.cores === 1 ? 'Kern' : 'Kerne'}`, price: formatEuro(c.cpu.priceCents) },
      { label: 'Arbeitsspeicher', detail: `${c.ram.size} GB ${c.ram.type}`, price: formatEuro(c.ram.priceCents) },
      { label: 'Speicher', detail: `${c.storage.size} GB ${c.storage.type}`, price: formatEuro(c.storage.priceCents) },
      { label: 'Betriebssystem', detail: c.os, price: formatEuro(c.osPriceCents) },
      { label: 'Netzwerk', detail: `IP ${c.network.ip ?? 'wird zugewiesen'} · ${c.network.bandwidth}`, price: formatEuro(c.network.priceCents) },
    ],
  };
}
