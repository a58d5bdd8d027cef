// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { DOMAIN_TLDS } from '@hp/contract/domain-tlds';
import { formatEuro, STORAGE_PLAN_IDS, STORAGE_PLANS } from '@hp/contract';

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

const renderPage = (node: React.ReactNode) => render(<MemoryRouter>{node}</MemoryRouter>);
const productCards = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>('[data-product]')];

describe('the product catalogue', () => {
  it('sells root servers, web hosting, domains and cloud storage today; virtual data centers come later', () => {
    expect(availableProducts.map((p) => p.id)).toEqual(['root-server', 'webhosting', 'domain', 'cloud-storage']);
    expect(upcomingProducts.map((p) => p.id)).toEqual(['virtual-data-center']);
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

  it('no longer promises 300 extensions, DNS management or WHOIS privacy, and names what is still to come', () => {
    const { container } = renderPage(<HomePage />);
    const text = container.textContent ?? '';
    expect(text).not.toMatch(/über 300 Endungen|DNS-Verwaltung|WHOIS/);
    expect(text).toContain('Virtual Data Center ist bald verfügbar.');
    expect(text).not.toContain('Cloud-Speicher und Virtual Data Center sind bald verfügbar.');
    expect(text).not.toContain('Die meisten Funktionen sind derzeit noch nicht verfügbar');
  });
});

describe('the "bald verfügbar" page shows the catalogue\'s availability', () => {
  it.each(upcomingProducts.map((p) => [p.id, p] as const))('%s: its own name and pitch, and every product that can be ordered today', (_id, product) => {
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
