import { defineModule } from '../../jobs/define.ts';
import { invoiceRoutes } from './invoices.routes.ts';
import { issueInvoiceJob, mailInvoiceJob } from './invoices.service.ts';
import { invoiceReminderJob } from './manual-invoices.ts';

export const invoicesModule = defineModule({
  name: 'invoices',
  routes: [invoiceRoutes],
  jobs: [issueInvoiceJob, mailInvoiceJob, invoiceReminderJob],
});
