// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { DOMAIN_TLDS } from '@hp/contract/domain-tlds';
import { formatEuro, STORAGE_PLAN_IDS, STORAGE_PLANS, VDC_LIMITS, vdcPriceCents } from '@hp/contract';

// The company details are a build-time constant (vite `define`).
vi.stubGlobal('__COMPANY__', { name: 'Musterhost GmbH', email: 'info@example.com' });
const { HomePage } = await import('./home.tsx');
const { ComingSoonPage } = await import('./coming-soon.tsx');
const { availabilityLabels, availableProducts, products, upcomingProducts } = await import('../../config/products.ts');
const productPages = {
  'root-server': (await import('./root-server.tsx')).RootServerPage,
  webhosting: (await import('./webhosting.tsx')).WebhostingPage,
  domain: (await import('./domain.tsx')).DomainPage,
  'cloud-storage': (await import('./cloud-speicher.tsx')).CloudStoragePage,
  'virtual-data-center': (await import('./virtual-data-center.tsx')).VdcPage,
};

afterEach(cleanup);

const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ');

const renderPage = (node: React.ReactNode) => render(<MemoryRouter>{node}</MemoryRouter>);
const productCards = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>('[data-product]')];

describe('the product catalogue', () => {
  it('sells root servers, web hosting, domains, cloud storage and virtual data centers today', () => {
    expect(availableProducts.map((p) => p.id)).toEqual(['root-server', 'webhosting', 'domain', 'cloud-storage', 'virtual-data-center']);
    expect(upcomingProducts).toEqual([]);
  });

  it('promises for the virtual data center what decision 036 sells: a pool, own VMs, ISO upload, a private network and the request', () => {
    const vdc = products.find((p) => p.id === 'virtual-data-center')!;
    const claims = [vdc.pitch, ...vdc.features.flatMap((f) => [f.title, f.text])].join(' ');
    for (const word of ['vCPU', 'RAM', 'Speicher', 'IPv4', 'VMs', 'ISO', 'privates Netz', 'Angebot']) expect(claims).toContain(word);
    expect(claims).not.toMatch(/Windows-Lizenz|beliebig viele/);
  });

  it('promises for cloud storage what a Nextcloud account does: browser, apps, WebDAV and share links, no Samba', () => {
    const storage = products.find((p) => p.id === 'cloud-storage')!;
    const claims = [storage.pitch, ...storage.features.flatMap((f) => [f.title, f.text])].join(' ');
    expect(claims).not.toMatch(/samba|smb/i);
    for (const word of ['Browser', 'Desktop', 'iOS und Android', 'WebDAV', 'Freigabelinks']) expect(claims).toContain(word);
  });

  it('promises for domains only what decision 024 lets the product do', () => {
    const domain = products.find((p) => p.id === 'domain')!;
    const claims = [domain.pitch, ...domain.features.flatMap((f) => [f.title, f.text])].join(' ');
    for (const tld of DOMAIN_TLDS) expect(domain.pitch).toContain(`.${tld}`);
    expect(claims).not.toMatch(/300|WHOIS|DNS-Verwaltung|automatische Verlängerung/i);
  });
});

describe('the home page shows exactly the catalogue', () => {
  it('has one card per product with its name, pitch, feature bullets and availability, and nothing else', () => {
    const { container } = renderPage(<HomePage />);
    const cards = productCards(container);
    expect(cards.map((c) => c.dataset.product)).toEqual(products.map((p) => p.id));
    for (const [i, product] of products.entries()) {
      const card = within(cards[i]!);
      expect(card.getByRole('heading', { level: 3 }).textContent).toBe(product.name);
      expect(card.getByText(product.pitch)).toBeTruthy();
      expect(card.getByRole('list', { name: `Leistungen: ${product.name}` }).querySelectorAll('li').length).toBe(product.features.length);
      expect(card.getAllByRole('listitem').map((li) => li.textContent)).toEqual(product.features.map((f) => f.title));
      expect(card.getByText(availabilityLabels[product.availability])).toBeTruthy();
      expect(card.getByRole('link', { name: new RegExp(`^Mehr Details\\s*zu ${product.name}$`) }).getAttribute('href')).toBe(product.path);
    }
  });

  it('no longer promises 300 extensions, DNS management or WHOIS privacy, and shows no "bald verfügbar" notice once everything is sold', () => {
    const { container } = renderPage(<HomePage />);
    const text = container.textContent ?? '';
    expect(text).not.toMatch(/über 300 Endungen|DNS-Verwaltung|WHOIS/);
    expect(text).not.toContain('bald verfügbar');
    expect(text).not.toContain('befindet sich noch im Aufbau');
    expect(text).not.toContain('Die meisten Funktionen sind derzeit noch nicht verfügbar');
  });
});

describe('the "bald verfügbar" page shows the catalogue\'s availability', () => {
  // Every product is sold today; the page stays for the next one to come (the virtual data center stands in for it here).
  const upcoming = upcomingProducts.length > 0 ? upcomingProducts : products.filter((p) => p.id === 'virtual-data-center');
  it.each(upcoming.map((p) => [p.id, p] as const))('%s: its own name and pitch, and every product that can be ordered today', (_id, product) => {
    const { container, getByRole } = renderPage(<ComingSoonPage productId={product.id} />);
    expect(getByRole('heading', { level: 1 }).textContent).toBe(`${product.name} – bald verfügbar`);
    expect(container.textContent).toContain(product.pitch);
    const listed = productCards(container);
    expect(listed.map((li) => li.dataset.product)).toEqual(availableProducts.map((p) => p.id));
    for (const [i, available] of availableProducts.entries()) {
      const item = within(listed[i]!);
      expect(item.getByRole('heading', { level: 3 }).textContent).toBe(available.name);
      expect(item.getByText(available.pitch)).toBeTruthy();
      expect(item.getByRole('link', { name: available.orderLabel }).getAttribute('href')).toBe(available.orderPath);
    }
    expect(container.textContent).not.toContain('Bereits verfügbar: Root Server');
  });
});

describe('the cloud storage page', () => {
  it('says nothing of Samba or SMB and teases the plans at their contract prices, from the cheapest', () => {
    const CloudStoragePage = productPages['cloud-storage'];
    const { container } = renderPage(<CloudStoragePage />);
    const text = container.textContent ?? '';
    expect(text).not.toMatch(/samba|smb/i);
    expect(text).toContain('WebDAV');
    const cheapest = Math.min(...STORAGE_PLAN_IDS.map((id) => STORAGE_PLANS[id].monthlyCents));
    expect(text.replace(/\s/g, ' ')).toContain(`ab ${formatEuro(cheapest).replace(/\s/g, ' ')}`);
    expect(cheapest).toBe(299);
    const plans = [...container.querySelectorAll<HTMLElement>('[data-plan]')];
    expect(plans.map((li) => li.dataset.plan)).toEqual([...STORAGE_PLAN_IDS]);
    for (const li of plans) expect(li.textContent?.replace(/\s/g, ' ')).toContain(formatEuro(STORAGE_PLANS[li.dataset.plan as (typeof STORAGE_PLAN_IDS)[number]].monthlyCents).replace(/\s/g, ' '));
  });
});

describe('the virtual data center page', () => {
  it('teases the smallest pool at its price from the engine and offers the shop and the individual request', () => {
    const VdcPage = productPages['virtual-data-center'];
    const { container, getByRole } = renderPage(<VdcPage />);
    const smallest = vdcPriceCents({ cpu: VDC_LIMITS.cpu.min, ram: VDC_LIMITS.ram.min, storage: VDC_LIMITS.storage.min, ipv4: VDC_LIMITS.ipv4.min, months: 1 });
    expect(smallest).toBe(964);
    expect(plain(container.textContent)).toContain(`ab ${plain(formatEuro(smallest))}`);
    expect(getByRole('link', { name: /Virtual Data Center bestellen/ }).getAttribute('href')).toBe('/shop/vdc-request');
    expect(getByRole('link', { name: 'Individuelle Anfrage' }).getAttribute('href')).toBe('/shop/vdc-request?anfrage');
  });
});

describe('each product page reads the catalogue', () => {
  it.each(products.map((p) => [p.id, p] as const))('%s: shows every catalogue feature, and "Bald verfügbar" exactly when it cannot be ordered yet', (id, product) => {
    const Page = productPages[id];
    const { container } = renderPage(<Page />);
    const text = container.textContent ?? '';
    for (const feature of product.features) {
      expect(text).toContain(feature.title);
      expect(text).toContain(feature.text);
    }
    expect(text.includes(availabilityLabels.soon)).toBe(product.availability === 'soon');
  });
});
