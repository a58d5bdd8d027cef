import type { HostingDetail } from '@hp/contract';

/** Shared test fixtures of the package page: an ISPConfig package (no one-click apps, no backup-now, no file API). */
export const ID = '6f1c2b1e-6a55-4d0e-9b6e-0c7f3b1d2a10';

export const site: NonNullable<HostingDetail['site']> = {
  phpVersion: '8.2', memoryLimitMb: 256, maxExecutionTimeS: 60, ssl: 'active', backupFrequency: 'weekly', backupCopies: 5, retentionDays: 30,
  pendingChanges: false, panelUsername: 'c10001',
  usage: { diskUsedMb: 1200, diskQuotaMb: 50_000, trafficThisMonthMb: 300, trafficQuotaMb: 100_000 },
  domains: [{ id: '1', domain: 'meine-firma.de', type: 'primary', directory: '/var/www/clients/client12/web12/web', documentRoot: '/var/www/clients/client12/web12', ssl: 'active', dnsManaged: false }],
  databasesUsed: 0,
  ftp: { host: 'web1.example.com', username: 'c12_ftp', port: 21, directory: '/var/www/clients/client12/web12' },
  phpMyAdminUrl: 'https://web1.example.com/phpmyadmin/', panelUrl: 'https://web1.example.com:8080/', app: null,
};
export const detail: HostingDetail = {
  id: ID, name: 'Webhosting Professional', plan: 'professional', planName: 'Professional', status: 'active', statusMessage: null,
  primaryDomain: 'meine-firma.de', expiresAt: '2027-11-26T00:00:00.000Z', access: 'owner', hostingId: 'WH-1001',
  limits: { storageMb: 50_000, trafficMb: 100_000, databases: 10, domains: 5 }, phpVersions: ['7.4', '8.0', '8.1', '8.2'],
  site, panelError: null, websiteType: 'standard', capabilities: { apps: false, backupNow: false, htaccess: false }, panelName: 'ISPConfig',
  serverHostname: 'web1.example.com',
};
