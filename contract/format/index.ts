export * from './dayjs.ts'
export * from './dates.ts'
export * from './duration.ts'
export * from './password-expiry.ts'
