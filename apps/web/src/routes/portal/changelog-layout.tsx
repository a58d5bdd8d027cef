import { DashboardLayout } from '../../components/layouts/dashboard-layout.tsx';
import { PublicLayout } from '../../components/layouts/public-layout.tsx';
import { useSession } from '../../lib/session.ts';

/**
 * The changelog is linked from the portal's sidebar and from the public footer: signed-in users read it
 * inside the portal shell (sidebar stays), visitors inside the public site.
 */
export default function ChangelogLayout() {
  const { token, claims } = useSession();
  return token && claims ? <DashboardLayout /> : <PublicLayout />;
}
