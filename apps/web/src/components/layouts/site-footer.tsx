import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';
import { products } from '../../config/products.ts';

const linkClass = 'text-slate-300 hover:text-white';

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="bg-slate-900 text-slate-300 print:hidden">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:grid-cols-2 sm:px-6 lg:grid-cols-4">
        <div>
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-white">Über uns</h2>
          <ul className="space-y-2 text-sm">
            <li><Link className={linkClass} to={paths.company}>Unternehmen</Link></li>
            <li><Link className={linkClass} to={paths.dataCenter}>Rechenzentrum</Link></li>
            <li><Link className={linkClass} to={paths.changelogLegacy}>Changelog</Link></li>
          </ul>
        </div>
        <div>
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-white">Produkte</h2>
          <ul className="space-y-2 text-sm">
            {products.map((product) => (
              <li key={product.id}><Link className={linkClass} to={product.path}>{product.name}</Link></li>
            ))}
          </ul>
        </div>
        <div>
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-white">Support</h2>
          <ul className="space-y-2 text-sm">
            <li><Link className={linkClass} to={paths.faq}>FAQ</Link></li>
            <li><Link className={linkClass} to={paths.status}>Status</Link></li>
            <li><Link className={linkClass} to={paths.docs}>Dokumentation</Link></li>
          </ul>
        </div>
        <div>
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-white">Rechtliches</h2>
          <ul className="space-y-2 text-sm">
            <li><Link className={linkClass} to={paths.terms}>AGB</Link></li>
            <li><Link className={linkClass} to={paths.privacy}>Datenschutz</Link></li>
            <li><Link className={linkClass} to={paths.imprint}>Impressum</Link></li>
          </ul>
        </div>
      </div>
      <div className="border-t border-slate-800 py-6 text-center text-sm text-slate-400">
        © {year} {__COMPANY__.name}. Alle Rechte vorbehalten.
      </div>
    </footer>
  );
}
