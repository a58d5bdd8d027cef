export * from './users.ts';
export * from './status.ts';
