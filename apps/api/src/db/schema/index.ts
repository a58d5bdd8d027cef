export * from './users.ts';
export * from './status.ts';
export * from './infrastructure.ts';
export * from './billing.ts';
export * from './audit.ts';
export * from './files.ts';
export * from './tickets.ts';
export * from './changelog.ts';
