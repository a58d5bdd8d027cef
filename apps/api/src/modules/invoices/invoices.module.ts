import { defineModule } from '../../jobs/define.ts';
import { invoiceRoutes } from './invoices.routes.ts';
import { issueInvoiceJob, mailInvoiceJob } from './invoices.service.ts';

export const invoicesModule = defineModule({
  name: 'invoices',
  routes: [invoiceRoutes],
  jobs: [issueInvoiceJob, mailInvoiceJob],
});
