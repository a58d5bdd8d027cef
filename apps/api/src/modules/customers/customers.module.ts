import { defineModule } from '../../jobs/define.ts';
import { customerRoutes } from './customers.routes.ts';
import { retentionSchedule } from './retention.ts';

/** Back office: customers (issue 11), and the end of the retention of deleted customers' records. */
export const customersModule = defineModule({ name: 'customers', routes: [customerRoutes], schedules: [retentionSchedule] });
