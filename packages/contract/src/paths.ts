/**
 * Every route the SPA knows. The API uses the list to answer unknown paths with a real 404 status,
 * the prerender script uses `prerenderedPaths` to write static HTML for the public pages.
 */
export const prerenderedPaths = [
  '/',
  '/root-server',
  '/webhosting',
  '/cloud-speicher',
  '/virtual-data-center',
  '/domain',
  '/impressum',
  '/datenschutz',
  '/agb',
  '/faq',
  '/unternehmen',
  '/rechenzentrum',
  '/dokumentation',
  '/status',
  '/shop/webhosting',
  '/shop/cloud-storage',
  '/shop/vdc-request',
  '/login',
  '/register',
  '/reset-password',
  '/password-reset',
  '/notfound',
  '/404',
  '/error',
] as const;

/** Client-rendered routes (patterns with :params). */
export const spaRoutePatterns = [
  '/status-create',
  '/shop/root-server',
  '/shop/kvm-server',
  '/shop/payment',
  '/shop/domain',
  '/upgrade/kvm-server/:serverId',
  '/user/verification/:userId',
  '/email-bestaetigen',
  '/Changelog',
  '/changelog',
  '/changelog/:id',
  '/Changelog-details',
  '/Changelog-create',
  '/changelog-create',
  '/support/:ticketId',
  '/supporter/:ticketId',
  '/dashboard',
  '/console/:serverId',
  '/dashboard/*',
] as const;

export function matchesKnownRoute(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if ((prerenderedPaths as readonly string[]).includes(path)) return true;
  return spaRoutePatterns.some((pattern) => {
    if (pattern.endsWith('/*')) return path.startsWith(pattern.slice(0, -1));
    const a = pattern.split('/');
    const b = path.split('/');
    return a.length === b.length && a.every((seg, i) => seg.startsWith(':') ? (b[i] ?? '') !== '' : seg === b[i]);
  });
}
