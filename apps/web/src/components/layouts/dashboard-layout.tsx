import { useEffect, useState } from 'react';
import { useMediaQuery } from '../../lib/use-media-query.ts';
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { BarChart3, ChevronsLeft, ChevronsRight, FileText, History, LayoutGrid, LifeBuoy, LogOut, Server, ShoppingCart, Ticket, User, Users } from 'lucide-react';
import type { Role } from '@hp/contract';
import { isStaff, logout, useSession } from '../../lib/session.ts';
import { cn } from '../../lib/cn.ts';
import { useLiveEvents } from '../../lib/use-live-events.ts';
import { Logo } from './site-header.tsx';
import { paths } from '../../config/paths.ts';

interface Entry { to: string; label: string; icon: typeof Server; end?: boolean }

const customerEntries: Entry[] = [
  { to: paths.dashboard.root, label: 'Meine Produkte', icon: LayoutGrid, end: true },
  { to: paths.dashboard.orders, label: 'Bestellen', icon: ShoppingCart },
  { to: paths.dashboard.invoices, label: 'Rechnungen', icon: FileText },
  { to: paths.dashboard.support, label: 'Support', icon: LifeBuoy },
  { to: paths.changelog, label: 'Changelog', icon: History },
  { to: paths.dashboard.profile, label: 'Profil', icon: User },
];
const staffEntries: Entry[] = [
  { to: paths.dashboard.supportOverview, label: 'Ticket-Übersicht', icon: Ticket },
  { to: paths.dashboard.customerOverview, label: 'Kundenverwaltung', icon: Users },
  { to: paths.dashboard.staffServers, label: 'Server-Management', icon: Server },
];
const ownerEntries: Entry[] = [{ to: paths.dashboard.statistics, label: 'Statistiken', icon: BarChart3 }];

/** The sidebar is chosen from the role claim (spec); the API enforces the same roles. */
export function sidebarEntries(role: Role | undefined): Entry[] {
  return [...customerEntries, ...(isStaff(role) ? staffEntries : []), ...(role === 'owner' ? ownerEntries : [])];
}

const roleLabel: Record<Role, string> = { customer: 'Kunde', employee: 'Mitarbeiter', owner: 'Inhaber' };

export function DashboardLayout() {
  const { claims } = useSession();
  const navigate = useNavigate();
  const [collapsed, setCollapsed] = useState(() => typeof window !== 'undefined' && window.innerWidth < 768);
  const entries = sidebarEntries(claims?.role);
  useLiveEvents();

  // A window narrowed to phone width (or a tablet turned upright) gets the rail, not an open overlay.
  const isPhone = useMediaQuery('(max-width: 767px)');
  useEffect(() => {
    if (isPhone) setCollapsed(true);
  }, [isPhone]);

  // On a phone the opened sidebar covers the page, so choosing an entry closes it.
  const closeOnPhone = () => {
    if (window.matchMedia('(max-width: 767px)').matches) setCollapsed(true);
  };

  const signOut = async () => {
    await logout();
    navigate(paths.login);
  };

  return (
    <div className="flex min-h-screen bg-slate-50">
      <a href="#portal-main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-4 focus:py-2">Zum Inhalt springen</a>
      {/* On phones the opened sidebar lies over the page instead of squeezing it: the rail keeps its place. */}
      <div className={cn('shrink-0', collapsed ? 'w-20' : 'w-20 md:w-64')}>
        {!collapsed && <div className="fixed inset-0 z-30 bg-slate-900/40 md:hidden" aria-hidden="true" onClick={() => setCollapsed(true)} />}
        <aside className={cn('print:hidden sticky top-0 flex h-screen flex-col border-r border-slate-200 bg-white transition-[width]', collapsed ? 'w-20' : 'max-md:fixed max-md:left-0 max-md:z-40 w-64 max-md:shadow-xl')} aria-label="Seitenleiste">
          <div className={cn('flex h-16 items-center border-b border-slate-200 px-4', collapsed ? 'justify-center' : 'justify-between')}>
            {!collapsed && <Link to={paths.home} aria-label="Zur Startseite"><Logo /></Link>}
            <button
              type="button"
              onClick={() => setCollapsed((v) => !v)}
              className="inline-flex size-9 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100"
              aria-label={collapsed ? 'Seitenleiste ausklappen' : 'Seitenleiste einklappen'}
              aria-expanded={!collapsed}
            >
              {collapsed ? <ChevronsRight className="size-5" aria-hidden="true" /> : <ChevronsLeft className="size-5" aria-hidden="true" />}
            </button>
          </div>
          <nav className="flex-1 overflow-y-auto p-3" aria-label="Portal-Navigation">
            <ul className="space-y-1">
              {entries.map((e) => (
                <li key={e.to}>
                  <NavLink
                    to={e.to}
                    end={e.end}
                    title={collapsed ? e.label : undefined}
                    onClick={closeOnPhone}
                    className={({ isActive }) => cn('flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium', collapsed && 'justify-center', isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100')}
                  >
                    <e.icon className="size-5 shrink-0" aria-hidden="true" />
                    <span className={cn(collapsed && 'sr-only')}>{e.label}</span>
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="border-t border-slate-200 p-3">
            {!collapsed && claims && <p className="mb-2 px-3 text-xs text-slate-600">Kundennummer {claims.customerId} · {roleLabel[claims.role]}</p>}
            <button type="button" onClick={signOut} className={cn('flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium text-slate-700 hover:bg-slate-100', collapsed && 'justify-center')}>
              <LogOut className="size-5" aria-hidden="true" />
              <span className={cn(collapsed && 'sr-only')}>Abmelden</span>
            </button>
          </div>
        </aside>
      </div>
      <main id="portal-main" className="min-w-0 flex-1 px-4 py-8 sm:px-8">
        <Outlet />
      </main>
    </div>
  );
}
