import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Env {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  jwtSecret: string | undefined;
  webDist: string;
  isTest: boolean;
  logLevel: string;
  trustProxy: boolean;
  company: CompanyDetails;
}

/** Company details for the legal pages and (later) invoices; placeholders until configured. */
export interface CompanyDetails {
  name: string;
  street: string;
  zipCity: string;
  country: string;
  email: string;
  phone: string;
  managingDirector: string;
  register: string;
  vatId: string;
  taxNumber: string;
}

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const dataDir = path.resolve(source.DATA_DIR ?? path.join(repoRoot, 'data'));
  const port = Number(source.PORT ?? 5000);
  return {
    port,
    host: source.HOST ?? '0.0.0.0',
    publicUrl: source.PUBLIC_URL ?? `http://localhost:${port}`,
    dataDir,
    databaseUrl: source.DATABASE_URL || undefined,
    smtpUrl: source.SMTP_URL || undefined,
    mailFrom: source.MAIL_FROM ?? 'Hosting Portal <noreply@example.com>',
    jwtSecret: source.JWT_SECRET || undefined,
    webDist: path.resolve(source.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    isTest: source.NODE_ENV === 'test' || source.VITEST === 'true',
    logLevel: source.LOG_LEVEL ?? (source.VITEST ? 'silent' : 'info'),
    trustProxy: source.TRUST_PROXY === 'true',
    company: {
      name: source.COMPANY_NAME ?? 'Musterhost GmbH',
      street: source.COMPANY_STREET ?? 'Musterstraße 1',
      zipCity: source.COMPANY_ZIP_CITY ?? '60311 Frankfurt am Main',
      country: source.COMPANY_COUNTRY ?? 'Deutschland',
      email: source.COMPANY_EMAIL ?? 'info@example.com',
      phone: source.COMPANY_PHONE ?? '+49 69 000000',
      managingDirector: source.COMPANY_MANAGING_DIRECTOR ?? 'Max Mustermann',
      register: source.COMPANY_REGISTER ?? 'Amtsgericht Frankfurt am Main, HRB 000000',
      vatId: source.COMPANY_VAT_ID ?? 'DE000000000',
      taxNumber: source.COMPANY_TAX_NUMBER ?? '000/000/00000',
    },
  };
}
