// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';

// Build-time constants (vite `define` from the API's configuration); values an operator might set.
vi.stubGlobal('__COMPANY__', {
  name: 'Beispiel Hosting GmbH', street: 'Hafenstraße 7', zipCity: '20457 Hamburg', country: 'Deutschland', email: 'kontakt@beispiel.de',
  phone: '+49 40 123456', managingDirector: 'Erika Beispiel', register: 'Amtsgericht Hamburg, HRB 12345', vatId: 'DE123456789', taxNumber: '11/111/11111',
});
vi.stubGlobal('__DATA_CENTER__', { location: 'Hamburg, Deutschland', operator: '', certifications: ['ISO/IEC 27001', 'EN 50600'], power: 'Zwei Einspeisungen', network: '' });
const { CompanyPage } = await import('./unternehmen.tsx');
const { DataCenterPage } = await import('./rechenzentrum.tsx');
const { DocsPage } = await import('./dokumentation.tsx');
const { docTopics, faqSections, guideTopics } = await import('../../config/help-articles.ts');
const { products } = await import('../../config/products.ts');

afterEach(cleanup);

const renderPage = (node: React.ReactNode) => render(<MemoryRouter>{node}</MemoryRouter>);
const factsOf = (container: HTMLElement) => Object.fromEntries([...container.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));

describe('/unternehmen', () => {
  it('shows the configured company (as on the imprint and invoices) and every catalogue product', () => {
    const { container } = renderPage(<CompanyPage />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Über Beispiel Hosting GmbH');
    expect(factsOf(container)).toMatchObject({
      Firma: 'Beispiel Hosting GmbH', Anschrift: 'Hafenstraße 720457 HamburgDeutschland', Geschäftsführung: 'Erika Beispiel',
      Handelsregister: 'Amtsgericht Hamburg, HRB 12345', 'USt-IdNr.': 'DE123456789', 'E-Mail': 'kontakt@beispiel.de', Telefon: '+49 40 123456',
    });
    expect(screen.getByRole('link', { name: '+49 40 123456' }).getAttribute('href')).toBe('tel:+4940123456');
    expect([...container.querySelectorAll<HTMLElement>('[data-product]')].map((li) => li.dataset.product)).toEqual(products.map((p) => p.id));
    expect(container.textContent).not.toContain('Musterhost');
  });
});

describe('/rechenzentrum', () => {
  it('shows the configured data-center facts and leaves out the ones configured empty', () => {
    const { container } = renderPage(<DataCenterPage />);
    const facts = factsOf(container);
    expect(facts).toMatchObject({ Standort: 'Hamburg, Deutschland', Zertifizierungen: 'ISO/IEC 27001, EN 50600', Stromversorgung: 'Zwei Einspeisungen' });
    expect(Object.keys(facts)).not.toContain('Betreiber');
    expect(Object.keys(facts)).not.toContain('Netzwerk');
    expect(container.textContent).toContain('Ihre Server und Websites laufen in Hamburg, Deutschland.');
  });
});

describe('/dokumentation', () => {
  const articleIds = (container: HTMLElement) => [...container.querySelectorAll('article')].map((a) => a.id);

  it('lists the how-tos and every FAQ entry, each at its own stable anchor', () => {
    const { container } = renderPage(<DocsPage />);
    const ids = articleIds(container);
    expect(ids).toEqual(docTopics.flatMap((t) => t.articles.map((a) => a.id)));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['server-zugang', 'ssh-schluessel-hinterlegen', 'server-backup', 'domain-nameserver', 'domain-webhosting', 'faq-zahlung']));
    expect(guideTopics.map((t) => t.id)).toEqual(['erste-schritte', 'ssh', 'backups', 'dns', 'cloud-speicher']);
    for (const entry of faqSections.flatMap((s) => s.entries)) expect(container.querySelector(`#faq-${entry.id}`)?.textContent).toContain(entry.answer);
  });

  it('filters the articles as the customer types, ignoring case and accents, and all words must match', () => {
    const { container } = renderPage(<DocsPage />);
    const search = screen.getByRole('searchbox', { name: 'Dokumentation durchsuchen' });
    fireEvent.change(search, { target: { value: 'Schlussel ERSTELLEN' } });
    expect(articleIds(container)).toEqual(['ssh-schluessel-erstellen']);
    expect(screen.getByText('1 Artikel gefunden')).toBeTruthy();
    fireEvent.change(search, { target: { value: 'NAMESERVER' } });
    expect(articleIds(container)).toContain('domain-nameserver');
    expect(articleIds(container)).not.toContain('server-backup');
  });

  it('says "Keine Treffer für …" when nothing matches and shows everything again after resetting', () => {
    const { container } = renderPage(<DocsPage />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Dokumentation durchsuchen' }), { target: { value: '  Quantencomputer ' } });
    expect(articleIds(container)).toEqual([]);
    expect(screen.getByRole('status').textContent).toBe('Keine Treffer für „Quantencomputer“');
    fireEvent.click(screen.getByRole('button', { name: 'Suche zurücksetzen' }));
    expect(articleIds(container).length).toBe(docTopics.flatMap((t) => t.articles).length);
  });
});
