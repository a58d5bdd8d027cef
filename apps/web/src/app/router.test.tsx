// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { PRODUCT_KINDS } from '@hp/contract';
import { ProductViewsProvider, type ProductView } from '../lib/product-views.tsx';
import { clearToken, setToken } from '../lib/session.ts';
import { productViews } from './product-views.ts';

// Build-time constants (vite `define`) of the public layout's footer and pages; no API behind this test.
vi.stubGlobal('__COMPANY__', { name: 'Musterhost GmbH', email: 'info@example.com' });
vi.stubGlobal('__DATA_CENTER__', { location: 'Frankfurt am Main', operator: '', certifications: [], power: '', network: '' });
vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { status: 404 })));
// The dashboard layout asks for the phone layout (jsdom has no matchMedia) and opens the live-event stream.
vi.stubGlobal('matchMedia', () => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined }));
vi.mock('../lib/use-live-events.ts', () => ({ useLiveEvents: () => undefined }));
const { AppRoutes } = await import('./router.tsx');

const tokenOf = (role: 'customer' | 'owner') => `x.${btoa(JSON.stringify({ role, customerId: 'c1', sub: 'u1' })).replace(/=+$/, '')}.y`;

/** A product of its own, so that only the registration is under test, not a real product's pages. */
const testView = (kind: ProductView['kind'], name: string): ProductView => ({
  ...productViews[kind],
  shopRoutes: [{ path: `/shop/${name}`, element: <p>Shop {name}</p> }],
  portalRoutes: [
    { path: `/dashboard/${name}/:id`, element: <p>Seite {name}</p> },
    { path: `/dashboard/${name}-staff`, element: <p>Personal {name}</p>, roles: ['owner'] },
  ],
  MyProductsSection: () => <p>Bereich {name}</p>,
});

function CurrentPath() {
  return <output aria-label="Pfad">{useLocation().pathname}</output>;
}

function renderAt(path: string, views: Partial<Record<ProductView['kind'], ProductView>>) {
  render(
    <ProductViewsProvider value={views}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <CurrentPath />
      </MemoryRouter>
    </ProductViewsProvider>,
  );
}

describe('products register their pages through their views (issue 23)', () => {
  afterEach(() => {
    clearToken();
    cleanup();
  });

  it('has one view per product kind, in registry order, each with a shop page and a section of "Meine Produkte"', () => {
    expect(Object.keys(productViews)).toEqual([...PRODUCT_KINDS]);
    for (const [kind, view] of Object.entries(productViews)) {
      expect(view.kind).toBe(kind);
      expect(view.shopRoutes.length).toBeGreaterThan(0);
      expect(view.MyProductsSection).toBeDefined();
    }
  });

  it('keeps every product page at its URL, each declared once, the staff pages for staff only', () => {
    const shop = Object.values(productViews).flatMap((v) => v.shopRoutes.map((r) => r.path));
    const portal = Object.values(productViews).flatMap((v) => v.portalRoutes.map((r) => r.path));
    expect(shop).toEqual(['/shop/root-server', '/shop/kvm-server', '/upgrade/kvm-server/:serverId', '/shop/webhosting', '/shop/domain', '/shop/cloud-storage', '/shop/vdc-request']);
    expect(portal).toEqual([
      '/dashboard/linux/:serverId', '/dashboard/windows/:serverId', '/dashboard/other/:serverId',
      '/dashboard/webhosting/:hostingId', '/dashboard/WebDetails', '/dashboard/hosting-servers',
      '/dashboard/domains/:domainId',
      '/dashboard/cloud-storage/:storageId', '/dashboard/storage-servers',
      '/dashboard/vdc/:vdcId', '/dashboard/vdcs',
    ]);
    const staffOnly = Object.values(productViews).flatMap((v) => v.portalRoutes.filter((r) => r.roles).map((r) => [r.path, r.roles]));
    expect(staffOnly).toEqual([['/dashboard/hosting-servers', ['employee', 'owner']], ['/dashboard/storage-servers', ['employee', 'owner']], ['/dashboard/vdcs', ['employee', 'owner']]]);
  });

  it('sends /shop/root-server on to the KVM configurator by the root server\'s view', async () => {
    renderAt('/shop/root-server', productViews);
    await waitFor(() => expect(screen.getByLabelText('Pfad').textContent).toBe('/shop/kvm-server'), { timeout: 10_000 });
    cleanup();

    const { root_server: _rootServer, ...others } = productViews;
    renderAt('/shop/root-server', others);
    expect(await screen.findByText('Oops! Diese Seite wurde nicht gefunden')).toBeTruthy();
    expect(screen.getByLabelText('Pfad').textContent).toBe('/shop/root-server');
  });

  it('renders a product\'s shop page on the public site and its page under /dashboard', async () => {
    renderAt('/shop/speicher', { cloud_storage: testView('cloud_storage', 'speicher') });
    expect(await screen.findByText('Shop speicher')).toBeTruthy();
    cleanup();

    setToken(tokenOf('customer'));
    renderAt('/dashboard/speicher/7', { cloud_storage: testView('cloud_storage', 'speicher') });
    expect(await screen.findByText('Seite speicher')).toBeTruthy();
  });

  it('shows a product\'s staff page only to the roles it names', async () => {
    setToken(tokenOf('customer'));
    renderAt('/dashboard/speicher-staff', { cloud_storage: testView('cloud_storage', 'speicher') });
    expect(await screen.findByText('Oops! Diese Seite wurde nicht gefunden')).toBeTruthy();
    expect(screen.queryByText('Personal speicher')).toBeNull();
    cleanup();

    setToken(tokenOf('owner'));
    renderAt('/dashboard/speicher-staff', { cloud_storage: testView('cloud_storage', 'speicher') });
    expect(await screen.findByText('Personal speicher')).toBeTruthy();
  });

  it('lists each product\'s section on "Meine Produkte" in registry order', async () => {
    setToken(tokenOf('customer'));
    renderAt('/dashboard', { root_server: testView('root_server', 'server'), domain: testView('domain', 'domain') });
    await screen.findByText('Bereich server');
    const sections = screen.getAllByText(/^Bereich /).map((p) => p.textContent);
    expect(sections).toEqual(['Bereich server', 'Bereich domain']);
  });
});
