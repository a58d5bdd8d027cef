import { isValidElement, lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';

type Loader = () => Promise<unknown>;

/** The loaders of the components made by `lazyPage`, by component (nothing else is loaded early). */
const loaders = new WeakMap<object, Loader>();

/**
 * A page loaded on first visit (React's `lazy`) that can also be asked to start loading early (`StartLoading`).
 * Both share one request; a failed one is forgotten, so the next render tries again and React's error path
 * sees the failure as before.
 */
export function lazyPage<P extends object = object>(load: () => Promise<{ default: ComponentType<P> }>): LazyExoticComponent<ComponentType<P>>;
/** The same for a module whose page is a named export: `pick` finds it. */
export function lazyPage<M, P extends object = object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>): LazyExoticComponent<ComponentType<P>>;
export function lazyPage<M, P extends object>(load: () => Promise<M>, pick = (module: M) => (module as { default: ComponentType<P> }).default) {
  let pending: Promise<M> | undefined;
  const preload = () => (pending ??= load().catch((error: unknown) => {
    pending = undefined;
    throw error;
  }));
  const page = lazy(async () => ({ default: pick(await preload()) }));
  loaders.set(page, preload);
  return page;
}

/** Whether a component was made by `lazyPage` (a test checks the shops' pages). */
export const isLazyPage = (component: unknown) => typeof component === 'object' && component !== null && loaders.has(component);

/** The module of a page element made by `lazyPage`: requested now, beside whatever else the route waits for. */
export function StartLoading({ page }: { page: ReactNode }) {
  const preload = isValidElement(page) && typeof page.type === 'object' && page.type !== null ? loaders.get(page.type) : undefined;
  void preload?.().catch(() => undefined);
  return null;
}
