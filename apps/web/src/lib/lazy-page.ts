import { isValidElement, lazy, type ComponentType, type ReactNode } from 'react';

type Loader = () => Promise<unknown>;

/**
 * A page loaded on first visit (React's `lazy`) that can also be asked to start loading early: `preload`
 * fetches the same module, so the page renders from it without a second request.
 */
export function lazyPage<M, P extends object = object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>) {
  return Object.assign(lazy(async () => ({ default: pick(await load()) })), { preload: load as Loader });
}

/** The module of a page element made by `lazyPage`: requested now, beside whatever else the route waits for. */
export function StartLoading({ page }: { page: ReactNode }) {
  if (isValidElement(page)) void (page.type as { preload?: Loader }).preload?.().catch(() => undefined);
  return null;
}
