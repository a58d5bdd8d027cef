// @vitest-environment jsdom
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { toast } from 'sonner';
import AppToaster from './toaster.tsx';

beforeAll(() => {
  // jsdom has no matchMedia; a wide desktop window.
  window.matchMedia = ((query: string) => ({
    matches: query.includes('min-width'), media: query, onchange: null,
    addEventListener: () => {}, removeEventListener: () => {}, addListener: () => {}, removeListener: () => {}, dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
});
afterEach(cleanup);

describe('AppToaster', () => {
  it('speaks German to screen readers and sits at the bottom right, away from the header buttons', async () => {
    render(<AppToaster />);
    act(() => { toast.success('Ihre Regel wurde erstellt.'); });
    const region = await screen.findByRole('region', { name: 'Benachrichtigungen (Alt+T)' });
    expect(screen.queryByRole('region', { name: /Notifications/ })).toBeNull();
    expect(await screen.findByRole('button', { name: 'Schließen' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Close/ })).toBeNull();
    const list = region.querySelector('[data-sonner-toaster]')!;
    expect(list.getAttribute('data-y-position')).toBe('bottom');
    expect(list.getAttribute('data-x-position')).toBe('right');
  });
});
