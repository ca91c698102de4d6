// Cron schedules for tasks: one parser for the panel, the browser and the node daemon.
export { expandAlias } from "./aliases";
export { parseCron, isValidCron, dayMatches, type CronSchedule } from "./parse";
export { nextRun } from "./next";
export {
  CRON_MODES, defaultCronForm, cronToForm, formToCron, switchMode, toggleWeekday, formIsValid,
  type CronMode, type CronForm,
} from "./editor";
