import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { DashboardLayout } from '../../components/layouts/dashboard-layout.tsx';
import { Spinner } from '../../components/ui/card.tsx';
import { useSession } from '../../lib/session.ts';
import { RequireRole, staffRoles } from './portal-routes.tsx';
import { paths } from '../../config/paths.ts';

const CustomerTicketPage = lazy(() => import('./ticket.tsx'));
const SupporterTicketPage = lazy(() => import('../staff/supporter-ticket.tsx'));

/**
 * The ticket chats live outside /dashboard (spec: /support/{id}, /supporter/{id}) but inside the portal
 * shell, whose layout keeps the live event stream open. Without a token: /login; staff view for other
 * roles: /notfound.
 */
export default function TicketRoutes({ view }: { view: 'customer' | 'staff' }) {
  const { token, claims } = useSession();
  if (!token || !claims) return <Navigate to={paths.login} replace />;
  return (
    <Routes>
      <Route element={<DashboardLayout />}>
        <Route
          path=":ticketId"
          element={<Suspense fallback={<Spinner />}>{view === 'customer' ? <CustomerTicketPage /> : <RequireRole roles={staffRoles}><SupporterTicketPage /></RequireRole>}</Suspense>}
        />
      </Route>
    </Routes>
  );
}
