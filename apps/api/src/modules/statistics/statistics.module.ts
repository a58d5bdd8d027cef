import { defineModule } from '../../jobs/define.ts';
import { statisticsRoutes } from './statistics.routes.ts';

/** Owner statistics: capacity, finances, receivables and support figures from the stored data (docs/decisions/017). */
export const statisticsModule = defineModule({ name: 'statistics', routes: [statisticsRoutes] });
