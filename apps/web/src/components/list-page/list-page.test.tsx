// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { ListPage, type ListQueryResult, type ListRequest } from './list-page.tsx';

interface Row { id: number; name: string }
const rows: Row[] = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, name: `node-${i + 1}` }));

/** A fake list hook that records what the page asked for and answers like the server would. */
function fakeList() {
  const requests: ListRequest[] = [];
  const useList = (request: ListRequest): ListQueryResult<Row> => {
    requests.push(request);
    const matching = rows.filter((r) => r.name.includes(request.q));
    const start = (request.page - 1) * request.pageSize;
    return { data: { items: matching.slice(start, start + request.pageSize), total: matching.length }, isPending: false, isError: false, error: null, isFetching: false, refetch: () => {} };
  };
  return { requests, useList };
}

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

function renderPage(useList: (r: ListRequest) => ListQueryResult<Row>, url = '/dashboard/physical-servers') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <ListPage
        useList={useList}
        search={{ label: 'Physische Server suchen', placeholder: 'Suche …' }}
        filters={[{ param: 'status', label: 'Status', allLabel: 'Alle Status', options: [{ value: 'online', label: 'Online' }] }]}
        sortOptions={[{ value: 'id', label: 'ID' }, { value: '-name', label: 'Name (Z–A)' }]}
        table={{ caption: 'Physische Server', columns: [{ header: 'Name', rowHeader: true, cell: (r) => r.name }], rowKey: (r) => r.id }}
        texts={{ loading: 'Lade …', error: 'Fehler.', empty: 'Noch keine.', noMatch: (q) => `Keine physischen Server zu „${q}“ gefunden.`, pagination: 'Seiten der physischen Server' }}
      />
      <Location />
    </MemoryRouter>,
  );
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('ListPage', () => {
  it('reads search, filter, sort and page from the URL and asks the server for exactly that page', () => {
    const list = fakeList();
    renderPage(list.useList, '/x?q=node-1&status=online&sort=-name&page=2');
    expect(list.requests.at(-1)).toEqual({ q: 'node-1', page: 2, pageSize: 25, sort: '-name', filters: { status: 'online' } });
    expect(screen.getByLabelText('Physische Server suchen')).toHaveProperty('value', 'node-1');
    expect(screen.getByLabelText('Status')).toHaveProperty('value', 'online');
    expect(screen.getByLabelText('Sortierung')).toHaveProperty('value', '-name');
  });

  it('writes a search term to the URL once typing rests and starts again at page 1', () => {
    vi.useFakeTimers();
    const list = fakeList();
    renderPage(list.useList, '/x?page=2');
    fireEvent.change(screen.getByLabelText('Physische Server suchen'), { target: { value: ' node-5 ' } });
    act(() => vi.advanceTimersByTime(300));
    expect(screen.getByTestId('location').textContent).toBe('?q=node-5');
    expect(list.requests.at(-1)).toMatchObject({ q: 'node-5', page: 1 });
    expect(screen.getByRole('table', { name: 'Physische Server' })).toBeTruthy();
  });

  it('writes the search term at once when the box is left (so a click on a link is never followed by a late write)', () => {
    vi.useFakeTimers();
    const list = fakeList();
    renderPage(list.useList, '/x');
    const box = screen.getByLabelText('Physische Server suchen');
    fireEvent.change(box, { target: { value: 'node-7' } });
    expect(screen.getByTestId('location').textContent).toBe('');
    fireEvent.blur(box);
    expect(screen.getByTestId('location').textContent).toBe('?q=node-7');
    act(() => vi.advanceTimersByTime(300));
    expect(screen.getByTestId('location').textContent).toBe('?q=node-7');
  });

  it('takes a search term still being typed along when the order or a filter changes, and writes nothing later', () => {
    vi.useFakeTimers();
    const list = fakeList();
    renderPage(list.useList);
    fireEvent.change(screen.getByLabelText('Physische Server suchen'), { target: { value: 'node-5' } });
    const query = () => Object.fromEntries(new URLSearchParams(screen.getByTestId('location').textContent!));
    fireEvent.change(screen.getByLabelText('Sortierung'), { target: { value: '-name' } });
    expect(query()).toEqual({ q: 'node-5', sort: '-name' });
    act(() => vi.advanceTimersByTime(1000));
    expect(query()).toEqual({ q: 'node-5', sort: '-name' });
    expect(list.requests.at(-1)).toEqual({ q: 'node-5', page: 1, pageSize: 25, sort: '-name', filters: {} });
    fireEvent.change(screen.getByLabelText('Physische Server suchen'), { target: { value: 'node-50' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'online' } });
    act(() => vi.advanceTimersByTime(1000));
    expect(query()).toEqual({ q: 'node-50', sort: '-name', status: 'online' });
    expect(screen.getByLabelText('Physische Server suchen')).toHaveProperty('value', 'node-50');
  });

  it('keeps the page, filter and sort in the URL and leaves the default order out of it', () => {
    const list = fakeList();
    renderPage(list.useList, '/x');
    expect(screen.getByText('Seite 1 von 3 · 60 Einträge')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Weiter/ }));
    expect(screen.getByTestId('location').textContent).toBe('?page=2');
    expect(screen.getByText('Seite 2 von 3 · 60 Einträge')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Sortierung'), { target: { value: '-name' } });
    expect(screen.getByTestId('location').textContent).toBe('?sort=-name');
    fireEvent.change(screen.getByLabelText('Sortierung'), { target: { value: 'id' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'online' } });
    expect(screen.getByTestId('location').textContent).toBe('?status=online');
    expect(list.requests.at(-1)).toEqual({ q: '', page: 1, pageSize: 25, sort: undefined, filters: { status: 'online' } });
  });

  it('says what found nothing: the search term', () => {
    const list = fakeList();
    renderPage(list.useList, '/x?q=gibtsnicht');
    expect(screen.getByText('Keine physischen Server zu „gibtsnicht“ gefunden.')).toBeTruthy();
  });
});
