import { Navigate } from 'react-router';
import { Alert, Spinner } from '../../../components/ui/card.tsx';
import { useHostingPackages } from '../api/package-list.ts';
import { paths } from '../../../config/paths.ts';

/** /dashboard/WebDetails (spec): the customer's first package, or the shop when they have none. */
export default function WebhostingRedirect() {
  const list = useHostingPackages();
  if (list.isPending) return <Spinner label="Lade Hosting-Pakete …" />;
  if (list.isError) return <Alert tone="error">{list.error.message}</Alert>;
  const first = list.data.items[0];
  return <Navigate to={first ? paths.dashboard.webhosting(first.id) : paths.shop.webhosting} replace />;
}
