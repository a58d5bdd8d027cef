import { useState } from 'react';
import { Link } from 'react-router';
import { ArrowRight, PackageOpen } from 'lucide-react';
import { billingPeriodLabel, formatDayMonthYear, formatEuro, type OrderCard } from '@hp/contract';
import { PageMeta } from '../../../components/page-meta.tsx';
import { buttonClass } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { BILLING_PAGE_SIZE, useOrders } from '../api/orders.ts';
import { OrderStatusBadge } from '../../../components/billing/billing-badges.tsx';
import { ListState } from '../../../components/ui/list-state.tsx';
import { OrderButtons } from '../../../components/billing/order-buttons.tsx';
import { paths } from '../../../config/paths.ts';

/** Portal spec "Orders": one card per paid order, with a details link. */
export default function OrdersPage() {
  const [offset, setOffset] = useState(0);
  const orders = useOrders(offset);
  const items = orders.data?.items ?? [];

  return (
    <div className="mx-auto max-w-6xl">
      <PageMeta title="Bestellungen" />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Bestellungen</h1>
          <p className="mt-1 text-slate-700">Ihre bezahlten Bestellungen und Verlängerungen.</p>
        </div>
        <OrderButtons />
      </div>

      <div className="mt-6">
        <ListState
          query={orders}
          isEmpty={!items.length}
          loadingLabel="Lade Bestellungen …"
          errorText="Die Bestellungen konnten nicht geladen werden."
          empty={
            <div className="flex flex-col items-center gap-3 py-4">
              <PackageOpen className="size-10 text-slate-400" aria-hidden="true" />
              <h2 className="text-lg font-semibold text-slate-900">Noch keine Bestellungen</h2>
              <p className="text-slate-600">Sobald Sie ein Produkt bestellt und bezahlt haben, erscheint die Bestellung hier.</p>
              <OrderButtons size="sm" className="justify-center" />
            </div>
          }
        >
          <ul className="grid gap-4 md:grid-cols-2" aria-label="Bestellungen">
            {items.map((order) => <OrderCardItem key={order.id} order={order} />)}
          </ul>
          <Pagination offset={offset} limit={BILLING_PAGE_SIZE} total={orders.data?.total ?? 0} onOffsetChange={setOffset} label="Seiten der Bestellungen" />
        </ListState>
      </div>
    </div>
  );
}

function OrderCardItem({ order }: { order: OrderCard }) {
  return (
    <li>
      <Card className="flex h-full flex-col p-5">
        <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
          <div className="min-w-0">
            <h2 className="text-lg font-semibold text-slate-900">{order.product}</h2>
            <p className="text-sm text-slate-600">Bestellnummer <span className="font-mono">{order.number}</span>{order.kind === 'upgrade' ? ' · Verlängerung/Upgrade' : ''}</p>
          </div>
          <OrderStatusBadge status={order.status} />
        </div>
        <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
          <Fact label="Bestelldatum" value={formatDayMonthYear(order.date)} />
          <Fact label="Preis" value={formatEuro(order.amountCents)} strong />
          <Fact label="Abrechnung" value={billingPeriodLabel(order.months)} />
          <Fact label="Nächste Abrechnung" value={order.nextBillingDate ? formatDayMonthYear(order.nextBillingDate) : "keine"} />
        </dl>
        <div className="mt-5 flex flex-1 items-end">
          <Link to={paths.dashboard.order(order.id)} className={buttonClass('secondary', 'sm')}>
            Details<span className="sr-only"> zu Bestellung {order.number}</span> <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
        </div>
      </Card>
    </li>
  );
}

function Fact({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className="min-w-0">
      <dt className="break-words text-xs text-slate-600">{label}</dt>
      <dd className={strong ? 'break-words font-semibold text-slate-900' : 'break-words font-medium text-slate-900'}>{value}</dd>
    </div>
  );
}
