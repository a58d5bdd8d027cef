import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { PublicLayout } from '../components/layouts/public-layout.tsx';
import { Spinner } from '../components/ui/card.tsx';
import { HomePage } from '../routes/public/home.tsx';
import { RootServerPage } from '../routes/public/root-server.tsx';
import { WebhostingPage } from '../routes/public/webhosting.tsx';
import { CloudStoragePage } from '../routes/public/cloud-speicher.tsx';
import { VdcPage } from '../routes/public/virtual-data-center.tsx';
import { DomainPage } from '../routes/public/domain.tsx';
import { ImpressumPage, DatenschutzPage, AgbPage } from '../routes/public/legal.tsx';
import { FaqPage } from '../routes/public/faq.tsx';
import { CompanyPage } from '../routes/public/unternehmen.tsx';
import { DataCenterPage } from '../routes/public/rechenzentrum.tsx';
import { DocsPage } from '../routes/public/dokumentation.tsx';
import { NotFoundPage, ErrorPage } from '../routes/public/not-found.tsx';
import { paths } from '../config/paths.ts';
import { useProductViews } from '../lib/product-views.tsx';
import { lazyPage, StartLoading } from '../lib/lazy-page.ts';

// Everything that needs forms, schemas or data loads only when visited; the home page stays small.
// Prerendering waits for these (react-dom/static), and hydration picks them up when loaded.
const LoginPage = lazyPage(() => import('../routes/account/login.tsx'), (m) => m.LoginPage);
const RegisterPage = lazyPage(() => import('../routes/account/register.tsx'), (m) => m.RegisterPage);
const ResetPasswordPage = lazyPage(() => import('../routes/account/reset-password.tsx'), (m) => m.ResetPasswordPage);
const StatusPage = lazyPage(() => import('../routes/public/status.tsx'), (m) => m.StatusPage);
const VerificationPage = lazyPage(() => import('../routes/account/verification.tsx'));
const EmailLinkPage = lazyPage(() => import('../routes/account/email-link.tsx'));
const MfaPage = lazyPage(() => import('../routes/account/mfa.tsx'));
const PortalRoutes = lazyPage(() => import('../routes/portal/portal-routes.tsx'));
const StatusCreatePage = lazyPage(() => import('../routes/staff/status-create.tsx'));
const PaymentResultPage = lazyPage(() => import('../routes/shop/payment.tsx'));
const ChangelogPage = lazyPage(() => import('../routes/public/changelog.tsx'));
const ChangelogEntryPage = lazyPage(() => import('../routes/public/changelog-entry.tsx'));
const NewestChangelogEntry = lazyPage(() => import('../routes/public/changelog-entry.tsx'), (m) => m.NewestChangelogEntry);
const ChangelogFormPage = lazyPage(() => import('../routes/staff/changelog-create.tsx'));
const ChangelogLayout = lazyPage(() => import('../routes/portal/changelog-layout.tsx'));
const ConsolePage = lazyPage(() => import('../routes/portal/console.tsx'));
const TicketRoutes = lazyPage(() => import('../routes/portal/ticket-routes.tsx'));

const QueryProvider = lazy(() => import('./query-provider.tsx'));

// The page's own module is requested beside the query cache's (StartLoading), not once the cache has loaded:
// on a slow phone line (150 ms round trips, 4× CPU) the login form was usable a third of a second sooner (decision 042).
const page = (node: ReactNode) => (
  <Suspense fallback={<div className="mx-auto max-w-7xl px-4 py-16"><Spinner /></div>}>
    <StartLoading page={node} />
    <QueryProvider>{node}</QueryProvider>
  </Suspense>
);

export function AppRoutes() {
  const views = useProductViews();
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        <Route index element={<HomePage />} />
        <Route path={paths.rootServer} element={<RootServerPage />} />
        <Route path={paths.webhosting} element={<WebhostingPage />} />
        <Route path={paths.cloudStorage} element={<CloudStoragePage />} />
        <Route path={paths.virtualDataCenter} element={<VdcPage />} />
        <Route path={paths.domain} element={<DomainPage />} />
        <Route path={paths.imprint} element={<ImpressumPage />} />
        <Route path={paths.privacy} element={<DatenschutzPage />} />
        <Route path={paths.terms} element={<AgbPage />} />
        <Route path={paths.faq} element={<FaqPage />} />
        <Route path={paths.company} element={<CompanyPage />} />
        <Route path={paths.dataCenter} element={<DataCenterPage />} />
        <Route path={paths.docs} element={<DocsPage />} />
        <Route path={paths.status} element={page(<StatusPage />)} />
        <Route path={paths.statusCreate} element={page(<StatusCreatePage />)} />
        {/* Each product's shop pages (app/product-views.ts, in registry order). */}
        {views.flatMap((view) => view.shopRoutes.map((route) => (
          <Route key={route.path} path={route.path} element={page(route.element)} />
        )))}
        <Route path={paths.shop.payment} element={page(<PaymentResultPage />)} />
        <Route path={paths.login} element={page(<LoginPage />)} />
        <Route path={paths.register} element={page(<RegisterPage />)} />
        <Route path={paths.resetPassword} element={page(<ResetPasswordPage />)} />
        <Route path={paths.passwordReset} element={page(<ResetPasswordPage />)} />
        <Route path={paths.verification(':userId')} element={page(<VerificationPage />)} />
        <Route path={paths.emailLink} element={page(<EmailLinkPage />)} />
        <Route path={paths.notFound} element={<NotFoundPage />} />
        <Route path={paths.notFound404} element={<NotFoundPage />} />
        <Route path={paths.error} element={<ErrorPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
      {/* Inside the portal shell when signed in (sidebar entry), inside the public site otherwise. */}
      <Route element={page(<ChangelogLayout />)}>
        <Route path={paths.changelogLegacy} element={page(<ChangelogPage />)} />
        <Route path={paths.changelog} element={page(<ChangelogPage />)} />
        <Route path={paths.changelogEntry(':id')} element={page(<ChangelogEntryPage />)} />
        <Route path={paths.changelogDetailsLegacy} element={page(<NewestChangelogEntry />)} />
        <Route path={paths.changelogCreate} element={page(<ChangelogFormPage />)} />
        <Route path={paths.changelogCreateLegacy} element={page(<ChangelogFormPage />)} />
      </Route>
      <Route path={paths.dashboard.mfa} element={page(<MfaPage />)} />
      <Route path={`${paths.dashboard.root}/*`} element={page(<PortalRoutes />)} />
      <Route path={paths.console(':serverId')} element={page(<ConsolePage />)} />
      <Route path={`${paths.ticket('')}*`} element={page(<TicketRoutes view="customer" />)} />
      <Route path={`${paths.supporterTicket('')}*`} element={page(<TicketRoutes view="staff" />)} />
    </Routes>
  );
}
