import { z } from 'zod';
import { listPage, listQuery } from './infrastructure.ts';

/* Back office: customers (spec "Customer overview"; issue 11). Staff only. */

export const customerMessages = {
  exportFailed: 'Der Export konnte nicht erstellt werden.',
} as const;

/** "Firmenkunde" when a company name is on file, otherwise "Privatkunde" (spec "Customer detail"). */
export const customerKinds = ['private', 'business'] as const;
export type CustomerKind = (typeof customerKinds)[number];
export const customerKindLabels: Record<CustomerKind, string> = { private: 'Privatkunde', business: 'Firmenkunde' };

export const CustomerRow = z.object({
  id: z.string(),
  customerNumber: z.number().int(),
  name: z.string(),
  email: z.string(),
  companyName: z.string(),
  kind: z.enum(customerKinds),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type CustomerRow = z.infer<typeof CustomerRow>;
export const CustomerPage = listPage(CustomerRow);
export type CustomerPage = z.infer<typeof CustomerPage>;

/** Sort: customer since (default, newest first), name, last login. */
export const customerSortFields = ['createdAt', 'name', 'lastLogin'] as const;
/** Search: name, e-mail or customer number, case-insensitive substring. */
export const CustomerListQuery = listQuery(customerSortFields, {});
export type CustomerListQuery = z.infer<typeof CustomerListQuery>;
/** The CSV export takes the list's search and sort (all matching rows, no paging). */
export const CustomerExportQuery = CustomerListQuery.pick({ q: true, sort: true });
export type CustomerExportQuery = z.infer<typeof CustomerExportQuery>;
