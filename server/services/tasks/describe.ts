// Moved to core/cron/describe.ts; this re-export stays only until server/routes/server-pages.tsx
// (being changed by another hand) imports it from there.
export { cronstrueLocale, describeSchedule } from "../../../core/cron/describe";
