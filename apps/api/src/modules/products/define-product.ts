import type { ModuleManifest } from '../../jobs/define.ts';
import type { ProductModule } from './product-module.ts';

/** A module of the composition root's list; a product's module also carries its port implementation. */
export type DeclaredModule = ModuleManifest & { product?: ProductModule<never> };

/**
 * A product's one declaration (decision 035): its port implementation together with its routes, jobs and
 * schedules. The composition root's module list (app.ts) is the only place that names it; the registry
 * (`deps.products`), the router, the job runner, the scheduler and the test harness all read that list.
 */
export const defineProduct = <I>(m: ModuleManifest & { product: ProductModule<I> }): DeclaredModule => m as DeclaredModule;
