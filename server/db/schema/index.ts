// The whole schema, one module per area; drizzle-kit reads this file to generate migrations.
export * from './sites.ts'
export * from './teams.ts'
export * from './users.ts'
export * from './groups.ts'
export * from './sessions.ts'
