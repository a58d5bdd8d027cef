// @vitest-environment jsdom
import { lazy, Suspense, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { lazyPage, StartLoading } from './lazy-page.ts';

afterEach(cleanup);

/** A promise the test settles itself. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

describe('lazyPage and StartLoading (app/router.tsx page())', () => {
  it('requests the page while the provider around it is still loading, and renders it from that module', async () => {
    const provider = deferred<{ default: (p: { children: ReactNode }) => ReactNode }>();
    const Provider = lazy(() => provider.promise);
    const module = deferred<{ Page: () => ReactNode }>();
    const load = vi.fn(() => module.promise);
    const Page = lazyPage(load, (m) => m.Page);
    const node = <Page />;

    render(
      <Suspense fallback={<p>lädt</p>}>
        <StartLoading page={node} />
        <Provider>{node}</Provider>
      </Suspense>,
    );
    expect(screen.getByText('lädt')).toBeTruthy();
    // Without StartLoading the page's module would only be asked for once the provider had loaded.
    expect(load).toHaveBeenCalled();

    await act(async () => {
      provider.resolve({ default: ({ children }) => <section aria-label="Anbieter">{children}</section> });
      module.resolve({ Page: () => <h1>Anmelden</h1> });
      await module.promise;
    });
    expect((await screen.findByRole('heading', { name: 'Anmelden' })).closest('section')?.getAttribute('aria-label')).toBe('Anbieter');
  });

  it('leaves everything else alone: a plain lazy component is not loaded early, other nodes are ignored', () => {
    const factory = vi.fn(() => new Promise<never>(() => {}));
    const Plain = lazy(factory);
    render(<><StartLoading page={<Plain />} /><StartLoading page={<div />} /><StartLoading page="Text" /><StartLoading page={null} /></>);
    expect(factory).not.toHaveBeenCalled();
  });

  it('an early request that fails is caught, not left as an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      // A plain function: a vi.fn would itself handle the promise it returns (it records how it settled).
      let calls = 0;
      const load = () => {
        calls += 1;
        return Promise.reject(new Error('offline'));
      };
      const Page = lazyPage(load, () => () => null);
      render(<StartLoading page={<Page />} />);
      await act(async () => { await new Promise((r) => setTimeout(r, 10)); });
      expect(calls).toBe(1);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
