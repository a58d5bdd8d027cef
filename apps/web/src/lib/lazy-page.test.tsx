// @vitest-environment jsdom
import { Component, lazy, Suspense, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { isLazyPage, lazyPage, StartLoading } from './lazy-page.ts';

afterEach(cleanup);

/** A promise the test settles itself. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

class Boundary extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  override render() {
    return this.state.error ? <p role="alert">{this.state.error}</p> : this.props.children;
  }
}

type Provider = (p: { children: ReactNode }) => ReactNode;
const providerModule = { default: (({ children }) => <section aria-label="Anbieter">{children}</section>) as Provider };

/** As app/router.tsx's page(): the page's module requested beside a lazily loaded provider. */
function pageLike(node: ReactNode, provider: Promise<{ default: Provider }>) {
  const LazyProvider = lazy(() => provider);
  return (
    <Boundary>
      <Suspense fallback={<p>lädt</p>}>
        <StartLoading page={node} />
        <LazyProvider>{node}</LazyProvider>
      </Suspense>
    </Boundary>
  );
}

describe('lazyPage and StartLoading (app/router.tsx page())', () => {
  it('requests the page while the provider around it is still loading, once, and renders it from that module', async () => {
    const provider = deferred<{ default: Provider }>();
    const module = deferred<{ Page: () => ReactNode }>();
    const load = vi.fn(() => module.promise);
    const Page = lazyPage(load, (m) => m.Page);

    render(pageLike(<Page />, provider.promise));
    expect(screen.getByText('lädt')).toBeTruthy();
    // Without StartLoading the page's module would only be asked for once the provider had loaded.
    expect(load).toHaveBeenCalledTimes(1);

    await act(async () => {
      provider.resolve(providerModule);
      module.resolve({ Page: () => <h1>Anmelden</h1> });
      await module.promise;
    });
    expect((await screen.findByRole('heading', { name: 'Anmelden' })).closest('section')?.getAttribute('aria-label')).toBe('Anbieter');
    // The render used the early request; the module was not asked for a second time.
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a page whose module cannot load still reaches the error boundary, after trying again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {}); // React reports the caught error; restored after the test
    const load = vi.fn(() => Promise.reject(new Error('Modul nicht geladen')));
    const Page = lazyPage(load, () => () => <h1>nie</h1>);
    render(pageLike(<Page />, Promise.resolve(providerModule)));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Modul nicht geladen');
    expect(load.mock.calls.length).toBeGreaterThanOrEqual(2);
  });

  it('leaves everything else alone: a plain lazy component or a component with its own `preload` is not loaded early', () => {
    const factory = vi.fn(() => new Promise<never>(() => {}));
    const Plain = lazy(factory);
    const preload = vi.fn(() => Promise.resolve());
    const Other = Object.assign(() => null, { preload });
    render(<><StartLoading page={<Plain />} /><StartLoading page={<Other />} /><StartLoading page={<div />} /><StartLoading page="Text" /><StartLoading page={null} /></>);
    expect(factory).not.toHaveBeenCalled();
    expect(preload).not.toHaveBeenCalled();
    expect(isLazyPage(Plain)).toBe(false);
    expect(isLazyPage(lazyPage(() => Promise.resolve({}), () => () => null))).toBe(true);
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
