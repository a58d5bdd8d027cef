import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import type { Role } from '@hp/contract';
import { DashboardLayout } from '../../components/layouts/dashboard-layout.tsx';
import { Spinner } from '../../components/ui/card.tsx';
import { useSession } from '../../lib/session.ts';
import { useProductViews } from '../../lib/product-views.tsx';
import { dashboardRoute, paths } from '../../config/paths.ts';

const ProfilePage = lazy(() => import('./profile.tsx'));
const MyProductsPage = lazy(() => import('./my-products.tsx'));
const StaffServersPage = lazy(() => import('../staff/servers.tsx'));
const CustomerOverviewPage = lazy(() => import('../staff/customer-overview.tsx'));
const CustomerDetailPage = lazy(() => import('../staff/customer-detail.tsx'));
const CustomerOrderPage = lazy(() => import('../staff/customer-order.tsx'));
const StaffServerDetailPage = lazy(() => import('../staff/server-detail.tsx'));
const PhysicalServersPage = lazy(() => import('../staff/physical-servers.tsx'));
const IpAddressesPage = lazy(() => import('../staff/ip-addresses.tsx'));
const OrdersPage = lazy(() => import('./orders.tsx'));
const OrderDetailPage = lazy(() => import('./order-detail.tsx'));
const InvoicesPage = lazy(() => import('./invoices.tsx'));
const SupportPage = lazy(() => import('./support.tsx'));
const SupportOverviewPage = lazy(() => import('../staff/support-overview.tsx'));
const MyTicketsPage = lazy(() => import('../staff/my-tickets.tsx'));
// Its own chunk: recharts is loaded by the owner's statistics page only.
const StatisticsPage = lazy(() => import('../staff/statistics.tsx'));

const lazyPage = (node: ReactNode) => <Suspense fallback={<Spinner />}>{node}</Suspense>;

export function RequireRole({ roles, children }: { roles: Role[]; children: ReactNode }) {
  const { claims } = useSession();
  if (!claims || !roles.includes(claims.role)) return <Navigate to={paths.notFound} replace />;
  return <>{children}</>;
}

export const staffRoles: Role[] = ['employee', 'owner'];
const staff = staffRoles;

/** Everything under /dashboard: requires a stored token (spec), otherwise /login. */
export default function PortalRoutes() {
  const { token, claims } = useSession();
  const views = useProductViews();
  if (!token || !claims) return <Navigate to={paths.login} replace />;
  return (
    <Routes>
      <Route element={<DashboardLayout />}>
        <Route index element={lazyPage(<MyProductsPage />)} />
        <Route path={dashboardRoute(paths.dashboard.profile)} element={<Suspense fallback={<Spinner />}><ProfilePage /></Suspense>} />
        <Route path={dashboardRoute(paths.dashboard.orders)} element={lazyPage(<OrdersPage />)} />
        <Route path={dashboardRoute(paths.dashboard.order(':orderId'))} element={lazyPage(<OrderDetailPage />)} />
        <Route path={dashboardRoute(paths.dashboard.invoices)} element={lazyPage(<InvoicesPage />)} />
        <Route path={dashboardRoute(paths.dashboard.support)} element={lazyPage(<SupportPage />)} />
        <Route path={dashboardRoute(paths.dashboard.myTickets)} element={staff.includes(claims.role) ? lazyPage(<MyTicketsPage />) : <Navigate to={paths.dashboard.support} replace />} />
        {/* Each product's pages: the customer's page of a subscription, its staff pages (app/product-views.ts). */}
        {views.flatMap((view) => view.portalRoutes.map((route) => (
          <Route
            key={route.path}
            path={dashboardRoute(route.path)}
            element={route.roles ? <RequireRole roles={route.roles}>{lazyPage(route.element)}</RequireRole> : lazyPage(route.element)}
          />
        )))}
        <Route path={dashboardRoute(paths.dashboard.supportOverview)} element={<RequireRole roles={staff}>{lazyPage(<SupportOverviewPage />)}</RequireRole>} />
        <Route path={dashboardRoute(paths.dashboard.customerOverview)} element={<RequireRole roles={staff}>{lazyPage(<CustomerOverviewPage />)}</RequireRole>} />
        <Route path={dashboardRoute(paths.dashboard.customerDetails(':customerId'))} element={<RequireRole roles={staff}>{lazyPage(<CustomerDetailPage />)}</RequireRole>} />
        <Route path={dashboardRoute(paths.dashboard.customerOrder(':customerId'))} element={<RequireRole roles={staff}>{lazyPage(<CustomerOrderPage />)}</RequireRole>} />
        <Route path={dashboardRoute(paths.dashboard.staffServers)} element={<RequireRole roles={staff}>{lazyPage(<StaffServersPage />)}</RequireRole>} />
        <Route path={dashboardRoute(paths.dashboard.staffServer(':serverId'))} element={<RequireRole roles={staff}>{lazyPage(<StaffServerDetailPage />)}</RequireRole>} />
        <Route path={dashboardRoute(paths.dashboard.physicalServers)} element={<RequireRole roles={staff}>{lazyPage(<PhysicalServersPage />)}</RequireRole>} />
        <Route path={dashboardRoute(paths.dashboard.ipAddresses)} element={<RequireRole roles={staff}>{lazyPage(<IpAddressesPage />)}</RequireRole>} />
        <Route path={dashboardRoute(paths.dashboard.statistics)} element={<RequireRole roles={['owner']}>{lazyPage(<StatisticsPage />)}</RequireRole>} />
        <Route path="*" element={<Navigate to={paths.notFound404} replace />} />
      </Route>
    </Routes>
  );
}
