import { defineModule } from '../../jobs/define.ts';
import { paymentRoutes } from './payments.routes.ts';
import { paymentHousekeeping, simWebhookJob, syncCheckoutJob } from './payments.service.ts';
import { refundDuplicatePaymentJob, refundOrderJob } from './refunds.ts';

export const paymentsModule = defineModule({
  name: 'payments',
  routes: [paymentRoutes],
  jobs: [syncCheckoutJob, simWebhookJob, refundOrderJob, refundDuplicatePaymentJob],
  schedules: [paymentHousekeeping],
});
