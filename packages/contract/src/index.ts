export * from './messages.ts';
export * from './password.ts';
export * from './paths.ts';
export * from './auth.ts';
export * from './profile.ts';
export * from './errors.ts';
export * from './site.ts';
export * from './status.ts';
