import { z } from 'zod';

export const CompanyInfo = z.object({
  name: z.string(),
  street: z.string(),
  zipCity: z.string(),
  country: z.string(),
  email: z.string(),
  phone: z.string(),
  managingDirector: z.string(),
  register: z.string(),
  vatId: z.string(),
  taxNumber: z.string(),
});
export type CompanyInfo = z.infer<typeof CompanyInfo>;
