import { formatEuro, formatNumberDe, type OrderDetail } from '@hp/contract';
import type { OrderSummary } from '../../lib/product-views.tsx';
import { included } from '../../components/billing/order-lines.tsx';

/** A quota in GiB as Nextcloud names it ("500 GB", "1 TB"). */
const quota = (gb: number) => (gb >= 1024 ? `${formatNumberDe(gb / 1024, 2)} TB` : `${formatNumberDe(gb)} GB`);

/** A cloud storage order on the order page: the plan at its net price per month and what it includes. */
export function storageOrderSummary({ configuration: c, perMonth }: OrderDetail): OrderSummary | null {
  if (c.product !== 'cloud_storage') return null;
  return {
    title: 'Paket-Details',
    caption: 'Paket-Details, im Paketpreis enthalten',
    priceHeader: 'Netto pro Monat',
    lines: [
      { label: 'Tarif', detail: `Cloud-Speicher ${c.planName}`, price: formatEuro(perMonth.netCents) },
      { label: 'Konto', detail: c.accountName, price: included },
      { label: 'Speicherplatz', detail: quota(c.quotaGb), price: included },
      { label: 'Zugriff', detail: 'Browser, Desktop- und Mobil-Apps, WebDAV', price: included },
    ],
  };
}
