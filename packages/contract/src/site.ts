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

/** Facts about the data center on the public page /rechenzentrum (configuration; an empty value is not shown). */
export const DataCenterInfo = z.object({
  location: z.string(),
  operator: z.string(),
  certifications: z.array(z.string()),
  power: z.string(),
  network: z.string(),
});
export type DataCenterInfo = z.infer<typeof DataCenterInfo>;
