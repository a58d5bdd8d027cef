import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { WINDOWS_VERSIONS } from '@hp/contract';

// The company details are a build-time constant (vite `define`); the pages only need name and e-mail.
vi.stubGlobal('__COMPANY__', { name: 'Musterhost', email: 'info@example.com' });
const { FaqPage } = await import('./faq.tsx');
const { RootServerPage } = await import('./root-server.tsx');

const textOf = (node: React.ReactNode) => renderToString(<MemoryRouter>{node}</MemoryRouter>).replace(/<[^>]+>/g, ' ');
const years = (text: string) => [...text.matchAll(/Windows Server (\d{4}(?:\/\d{4})?)(?: und Windows Server (\d{4}))?/g)]
  .flatMap((m) => [...m[1]!.split('/'), ...(m[2] ? [m[2]] : [])]);
const sold = WINDOWS_VERSIONS.map((v) => v.replace('Windows Server ', ''));

describe('public pages name the Windows versions the shop sells', () => {
  it('the FAQ answer lists Windows Server 2025 and 2022, not 2019', () => {
    const text = textOf(<FaqPage />);
    expect(text).toContain('Sie können zwischen Ubuntu Server, Debian, Windows Server 2025 und Windows Server 2022 wählen.');
    expect(years(text).sort()).toEqual([...sold].sort());
    expect(text).not.toContain('2019');
  });

  it('the root-server page lists Windows Server 2025/2022, not 2019', () => {
    const text = textOf(<RootServerPage />);
    expect(text).toContain('Ubuntu Server, Debian oder Windows Server 2025/2022');
    expect(years(text).sort()).toEqual([...sold].sort());
    expect(text).not.toContain('2019');
  });
});
