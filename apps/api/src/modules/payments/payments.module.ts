import { defineModule } from '../../jobs/define.ts';
import { paymentRoutes } from './payments.routes.ts';
import { paymentHousekeeping, provisionOrderJob, simWebhookJob, syncCheckoutJob } from './payments.service.ts';

export const paymentsModule = defineModule({
  name: 'payments',
  routes: [paymentRoutes],
  jobs: [syncCheckoutJob, provisionOrderJob, simWebhookJob],
  schedules: [paymentHousekeeping],
});
