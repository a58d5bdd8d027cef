import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import { Menu, X } from 'lucide-react';
import { useToken } from '../../lib/session.ts';
import { buttonClass } from '../ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { paths } from '../../config/paths.ts';

export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn('flex items-center gap-2 text-lg font-bold text-slate-900', className)}>
      <svg viewBox="0 0 32 32" className="size-8" aria-hidden="true"><rect width="32" height="32" rx="7" fill="#1d4ed8" /><rect x="7" y="8" width="18" height="6" rx="1.5" fill="#fff" /><rect x="7" y="18" width="18" height="6" rx="1.5" fill="#bfdbfe" /></svg>
      Musterhost
    </span>
  );
}

const navItems = [
  { to: paths.home, label: 'Home', end: true },
  { to: paths.shop.kvmServer, label: 'KVM Server', end: false },
];

export function SiteHeader() {
  const [open, setOpen] = useState(false);
  const token = useToken();
  const hydrated = useHydrated();
  const linkClass = ({ isActive }: { isActive: boolean }) =>
    cn('block rounded-md px-3 py-2 text-sm font-medium', isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900');

  return (
    <header className="print:hidden sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to={paths.home} aria-label="Musterhost – zur Startseite"><Logo /></Link>
        <nav aria-label="Hauptnavigation" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {navItems.map((item) => (
              <li key={item.to}><NavLink to={item.to} end={item.end} className={linkClass}>{item.label}</NavLink></li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-2">
          {token ? (
            <Link to={paths.dashboard.root} className={buttonClass('primary', 'sm')}>Dashboard</Link>
          ) : (
            <Link to={paths.login} className={buttonClass('primary', 'sm')}>Login</Link>
          )}
          <button
            type="button"
            className="inline-flex size-10 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 md:hidden"
            aria-expanded={open}
            disabled={!hydrated}
            aria-controls="mobile-nav"
            aria-label={open ? 'Menü schließen' : 'Menü öffnen'}
            onClick={() => setOpen((v) => !v)}
          >
            {open ? <X className="size-6" aria-hidden="true" /> : <Menu className="size-6" aria-hidden="true" />}
          </button>
        </div>
      </div>
      {open && (
        <nav id="mobile-nav" aria-label="Mobile Navigation" className="border-t border-slate-200 px-4 py-2 md:hidden">
          <ul className="space-y-1">
            {navItems.map((item) => (
              <li key={item.to}><NavLink to={item.to} end={item.end} className={linkClass} onClick={() => setOpen(false)}>{item.label}</NavLink></li>
            ))}
          </ul>
        </nav>
      )}
    </header>
  );
}
