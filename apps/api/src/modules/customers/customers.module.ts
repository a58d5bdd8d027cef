import { defineModule } from '../../jobs/define.ts';
import { customerRoutes } from './customers.routes.ts';

/** Back office: customers (issue 11; the overview and its export so far). */
export const customersModule = defineModule({ name: 'customers', routes: [customerRoutes] });
