/**
 * The database schema: one PostgreSQL dialect for PGlite and PostgreSQL alike, one file per domain.
 * Money and credits are integers (cents, credits). New tables join onto `users` and `sites` the same way
 * the ones here do; `npm run db:generate` writes the migration after a change.
 */
export * from './sites';
export * from './members';
export * from './auth';
export * from './credits';
export * from './mail';
export * from './content';
export * from './push';
export * from './social';
export * from './chat';
export * from './payments';
export * from './staff';
export * from './directdebit';
export * from './operators';
export * from './jobs';
export * from './safety';
export * from './verification';
