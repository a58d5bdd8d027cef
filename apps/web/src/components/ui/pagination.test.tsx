// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Pagination } from './pagination.tsx';

afterEach(cleanup);

describe('Pagination', () => {
  it('shows the exact count with German digit grouping', () => {
    render(<Pagination offset={25} limit={25} total={1234} onOffsetChange={() => {}} />);
    expect(screen.getByText('Seite 2 von 50 · 1.234 Einträge')).toBeTruthy();
    expect((screen.getByRole('button', { name: /Weiter/ }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('says "mehr als" when the server stopped counting, and keeps "Weiter" open on the last counted page', () => {
    render(<Pagination offset={9975} limit={25} total={10000} totalCapped onOffsetChange={() => {}} />);
    expect(screen.getByText('Seite 400 von mehr als 400 · mehr als 10.000 Einträge')).toBeTruthy();
    expect((screen.getByRole('button', { name: /Weiter/ }) as HTMLButtonElement).disabled).toBe(false);
  });
});
