import { defineModule } from '../../jobs/define.ts';
import { taxReportRoutes } from './tax.routes.ts';

/** Tax reports for the owner: Zusammenfassende Meldung, OSS return, threshold (issue 24). */
export const taxModule = defineModule({ name: 'tax', routes: [taxReportRoutes] });
