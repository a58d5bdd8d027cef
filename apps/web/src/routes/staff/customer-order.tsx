import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { ArrowLeft } from 'lucide-react';
import { orderLinkMessages, type ServerConfig } from '@hp/contract';
import { PageMeta } from '../../components/page-meta.tsx';
import { Spinner } from '../../components/ui/card.tsx';
import { paths } from '../../config/paths.ts';
import { useCustomer, useSendOrderLink } from '../../features/customers/api/customers.ts';
import { Configurator, NEW_SERVER_DEFAULTS } from '../../features/servers/components/configurator.tsx';

/**
 * "Neue Bestellung" from the customer page (issue 11): the shop's configurator on the customer's behalf.
 * Composed here because the customers and shop features do not import each other.
 */
export default function CustomerOrderPage() {
  const { customerId = '' } = useParams();
  const navigate = useNavigate();
  const customer = useCustomer(customerId);
  const sendLink = useSendOrderLink(customerId);

  if (customer.isError) return <Navigate to={paths.notFound} replace />;
  if (customer.isPending) return <Spinner label="Lade Kundendaten …" />;
  const c = customer.data;
  if (c.deletedAt) return <Navigate to={paths.dashboard.customerDetails(customerId)} replace />;

  const send = async (config: ServerConfig, message: string) => {
    try {
      await sendLink.mutateAsync({ ...config, ...(message.trim() ? { message } : {}) });
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : orderLinkMessages.failed, { duration: 10_000 });
      return;
    }
    toast.success(orderLinkMessages.sent, { duration: 8000 });
    navigate(`${paths.dashboard.customerDetails(customerId)}?tab=communication`);
  };

  return (
    <div className="flex flex-col gap-6">
      <PageMeta title={`Neue Bestellung für ${c.name}`} />
      <div>
        <Link to={paths.dashboard.customerDetails(customerId)} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 underline">
          <ArrowLeft className="size-4" aria-hidden="true" /> Zurück zum Kunden
        </Link>
        <h1 className="mt-2 text-2xl font-bold break-words text-slate-900">Neue Bestellung für {c.name}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Stellen Sie den Server zusammen. Der Kunde erhält an {c.email} einen Zahlungslink; mit der Zahlung wird die Bestellung wie jede andere ausgeführt.
        </p>
      </div>
      <Configurator defaults={NEW_SERVER_DEFAULTS} onBehalf={{ customerName: c.name, send }} />
    </div>
  );
}
