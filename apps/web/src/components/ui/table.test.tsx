// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { DataTable, type Column } from './table.tsx';

interface Rule { id: string; port: string; description: string }
const columns: Column<Rule>[] = [
  { header: '#', rowHeader: true, cell: (r) => r.id },
  { header: 'Port', cell: (r) => r.port },
  { header: 'Beschreibung', cell: (r) => r.description },
  { header: 'Aktionen', actions: true, cell: (r) => <button type="button">Regel {r.id} löschen</button> },
];
const rows: Rule[] = [{ id: '1', port: '22', description: 'SSH' }, { id: '2', port: '80,443', description: 'Web' }];

afterEach(cleanup);

describe('DataTable', () => {
  it('is a named table with column headers and one row header per row', () => {
    render(<DataTable caption="Firewall-Regeln" columns={columns} rows={rows} rowKey={(r) => r.id} />);
    const table = screen.getByRole('table', { name: 'Firewall-Regeln' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['#', 'Port', 'Beschreibung', 'Aktionen']);
    expect(within(table).getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['1', '2']);
    expect(within(table).getByRole('cell', { name: '22' })).toBeTruthy();
  });

  it('labels every value for the stacked phone layout, but not the actions, whose header only screen readers get', () => {
    render(<DataTable caption="Firewall-Regeln" columns={columns} rows={rows} rowKey={(r) => r.id} />);
    const [, first] = screen.getAllByRole('row');
    const labels = [...first!.children].map((cell) => cell.getAttribute('data-label'));
    expect(labels).toEqual(['#', 'Port', 'Beschreibung', null]);
    expect(screen.getByRole('columnheader', { name: 'Aktionen' }).querySelector('.sr-only')?.textContent).toBe('Aktionen');
    expect(within(first!).getByRole('button', { name: 'Regel 1 löschen' })).toBeTruthy();
  });

  it('keeps visually hidden texts inside its own frame, so they cannot widen the page', () => {
    render(<DataTable caption="Firewall-Regeln" columns={columns} rows={rows} rowKey={(r) => r.id} />);
    // An absolutely positioned sr-only text is laid out against the nearest positioned ancestor; the
    // scroll frame has to be that ancestor, or the text counts towards the page's width.
    const frame = screen.getByRole('table').parentElement!;
    expect(frame.className).toMatch(/\brelative\b/);
    expect(frame.className).toMatch(/\boverflow-x-auto\b/);
  });
});
