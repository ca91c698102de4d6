// The TaskSchedule island against happy-dom: the script-free checkbox and
// text field the server renders; hydration taking over (with anything typed before it); the mode
// derived from the expression; a new task scheduled with '0 0 *\/1 * *' and a manual-only one
// switched off with the default in its fields; mode switches turning 0 into 1 and an empty weekly
// into Sunday; the hidden inputs the form posts; and 'Task Schedule Invalid' at the field.
import { describe, expect, test } from "bun:test";
import type { Window } from "happy-dom";
import { act } from "react";
import { renderToString } from "react-dom/server";
import { makeTranslate } from "../core/i18n/translate";
import { DEFAULT_TASK_CRON } from "../core/tasks/constants";
import { cronstrueLocale, describeSchedule } from "../core/cron/describe";
import island, { type TaskScheduleProps } from "./TaskSchedule";
import { click, formIslandPerTest, referenceMessages, typeInto as type, withI18n } from "./test-support";

let window: Window;
const hydrateIsland = formIslandPerTest(
  "http://localhost/server/srv1?tab=tasks",
  { expose: ["navigator", "HTMLInputElement", "HTMLSelectElement", "Event"], formId: "task" },
  (dom) => (window = dom.window),
);

// ── helpers ──────────────────────────────────────────────────────────────────────────────────
// The island sees only the messages it declared, as in the browser (views/components/Island.tsx).
const t = makeTranslate(referenceMessages(island.messages));
const element = (props: TaskScheduleProps) => withI18n(<island.component {...props} />, t);
/** The props the server gives: the opening schedule in words, in `locale`. */
const props = (initial: string | null, isNew: boolean, locale = "en_US"): TaskScheduleProps => ({
  initial,
  isNew,
  description: describeSchedule(initial?.trim() || DEFAULT_TASK_CRON, locale),
  describeLocale: cronstrueLocale(locale),
});

const $ = <T extends Element = HTMLElement>(selector: string) => window.document.querySelector(selector) as unknown as T | null;
const $$ = (selector: string) => [...window.document.querySelectorAll(selector)] as unknown as HTMLElement[];
/** What the form would post: its named fields. */
const posted = () => Object.fromEntries($$("#task [name]").map((el) => [el.getAttribute("name"), (el as unknown as HTMLInputElement).value]));
const switchOn = () => $('[role="switch"]')!.getAttribute("aria-checked") === "true";
const mode = () => $('[role="tab"][aria-selected="true"]')?.dataset.mode;
const tab = (name: string) => $(`[role="tab"][data-mode="${name}"]`);
const day = (n: number) => $(`[data-weekday="${n}"]`);
const pressedDays = () => $$("[data-weekday]").filter((b) => b.getAttribute("aria-pressed") === "true").map((b) => Number(b.dataset.weekday));
const error = () => $(".task-sched-error")?.textContent ?? null;
const words = () => $('[data-testid="task-words"]')?.textContent ?? null;

/** Waits for what loads later (cronstrue and its language, imported when the schedule first changes). */
async function waitFor(check: () => boolean, timeoutMs = 3_000) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not met in time; the words read ${JSON.stringify(words())}`);
    await act(async () => void (await Bun.sleep(20)));
  }
}

/** The input or select inside the .field whose label reads `label` (the time field's two go by their aria-label). */
function input(label: string): HTMLInputElement {
  const found =
    $(`.task-sched [aria-label="${label}"]`) ??
    $$(".task-sched .field").find((f) => f.querySelector(":scope > .field-label")?.textContent === label)?.querySelector("input, select");
  if (!found) throw new Error(`no field ${label}`);
  return found as unknown as HTMLInputElement;
}



/** Renders on the "server"; `before` plays the user on the plain form; then hydrates, which must match. */
async function mount(props: TaskScheduleProps, before?: () => void) {
  expect(await hydrateIsland(element(props), before)).toEqual([]);
}

// ── tests ────────────────────────────────────────────────────────────────────────────────────
describe("before script", () => {
  test("a checkbox and the expression; a new task is ticked with the default, a manual-only one is not", () => {
    const plain = (props: TaskScheduleProps) => {
      window.document.body.innerHTML = `<form id="task">${renderToString(element(props))}</form>`;
      return { checked: $<HTMLInputElement>('input[type="checkbox"][name="scheduled"]')!.checked, text: $<HTMLInputElement>('input[name="cronSchedule"]')!.value };
    };
    expect(plain(props(null, true))).toEqual({ checked: true, text: "0 0 */1 * *" });
    expect(plain(props(null, false))).toEqual({ checked: false, text: "0 0 */1 * *" });
    expect(plain(props("", false))).toEqual({ checked: false, text: "0 0 */1 * *" });
    expect(plain(props("30 18 ? * 1,3", false))).toEqual({ checked: true, text: "30 18 ? * 1,3" });
    expect($('[role="tab"]')).toBeNull();
  });
});

describe("the editor", () => {
  test("a new task: scheduled, Daily at 00:00 every day, posting the default as it is", async () => {
    await mount(props(null, true));
    expect(switchOn()).toBe(true);
    expect(mode()).toBe("daily");
    expect($$('[role="tab"]').map((b) => b.textContent)).toEqual(["Hourly", "Daily", "Weekly", "Monthly", "Advanced"]);
    expect([input("Hour").value, input("Minute").value, input("Every (days)").value]).toEqual(["0", "0", "1"]);
    // Hours and minutes are picked from lists that read 00, 01 …
    expect(input("Minute").querySelector("option")!.textContent).toBe("00");
    expect(posted()).toEqual({ scheduled: "on", cronSchedule: "0 0 */1 * *" });
    expect(error()).toBeNull();
  });

  test("a manual-only task: switched off, posting no schedule, with the default waiting in its fields", async () => {
    await mount(props(null, false));
    expect(switchOn()).toBe(false);
    expect(posted()).toEqual({ scheduled: "", cronSchedule: "" });
    expect(mode()).toBe("daily");
    expect(input("Every (days)").value).toBe("1");
    expect($<HTMLFieldSetElement>("fieldset.task-sched-body")!.disabled).toBe(true);
    await click($('[role="switch"]'));
    expect(switchOn()).toBe(true);
    expect(posted()).toEqual({ scheduled: "on", cronSchedule: "0 0 */1 * *" });
    // And off again: saved as manual only.
    await click($('[role="switch"]'));
    expect(posted()).toEqual({ scheduled: "", cronSchedule: "" });
  });

  test("the mode comes from the expression: weekly with its days and time; edits post the editor's form", async () => {
    await mount(props("30 18 ? * 1,3", false));
    expect(mode()).toBe("weekly");
    expect(pressedDays()).toEqual([1, 3]);
    expect([input("Hour").value, input("Minute").value]).toEqual(["18", "30"]);
    await click(day(2));
    expect(posted().cronSchedule).toBe("30 18 ? * 1,2,3");
    await click(day(1));
    await type(input("Minute"), "5");
    expect(posted().cronSchedule).toBe("5 18 ? * 2,3");
  });

  test("each mode's fields and shape: hourly, monthly, advanced", async () => {
    await mount(props("15 */6 * * ?", false));
    expect(mode()).toBe("hourly");
    expect([input("Minute").value, input("Every (hours)").value]).toEqual(["15", "6"]);
    await click(tab("monthly"));
    // "Every 6 hours" is no time of day: the time is still its own, 00:15.
    expect([input("Hour").value, input("Minute").value]).toEqual(["0", "15"]);
    await type(input("Hour"), "6");
    await type(input("Day of the month"), "15");
    await type(input("Every (months)"), "3");
    expect(posted().cronSchedule).toBe("15 6 15 */3 ?");
    await click(tab("advanced"));
    expect(input("Cron expression").value).toBe("15 6 15 */3 ?");
    await type(input("Cron expression"), "@weekly");
    expect(posted()).toEqual({ scheduled: "on", cronSchedule: "@weekly" });
    // Back from advanced, the text's own fields are taken when it has the mode's shape.
    await type(input("Cron expression"), "0 4 ? * 5");
    await click(tab("weekly"));
    expect(pressedDays()).toEqual([5]);
    expect(input("Hour").value).toBe("4");
  });

  test("switching tabs keeps the chosen time; intervals of 0 become 1", async () => {
    await mount(props("30 6 */2 * ?", false));
    await click(tab("hourly"));
    expect([input("Minute").value, input("Every (hours)").value]).toEqual(["30", "1"]);
    expect(posted().cronSchedule).toBe("30 */1 * * ?");
    await type(input("Every (hours)"), "4");
    for (const mode of ["daily", "weekly", "monthly", "daily"]) {
      await click(tab(mode));
      expect([input("Hour").value, input("Minute").value]).toEqual(["6", "30"]);
    }
    expect(input("Every (days)").value).toBe("2");
    await click(tab("hourly"));
    expect(input("Every (hours)").value).toBe("4");
    // An emptied or zero interval comes back as 1.
    await type(input("Every (hours)"), "");
    await click(tab("daily"));
    await type(input("Every (days)"), "0");
    await click(tab("monthly"));
    await click(tab("hourly"));
    expect(input("Every (hours)").value).toBe("1");
    await click(tab("daily"));
    expect(input("Every (days)").value).toBe("1");
    expect(posted().cronSchedule).toBe("30 6 */1 * ?");
  });

  test("Weekly with no day picked suggests Sunday; the first day picked replaces it", async () => {
    await mount(props("0 9 */1 * ?", false));
    await click(tab("weekly"));
    expect(pressedDays()).toEqual([0]);
    expect(day(0)!.hasAttribute("data-suggested")).toBe(true);
    expect($(".task-sched-days + .field-hint")!.textContent).toBe("Sunday is picked until you choose days.");
    expect(posted().cronSchedule).toBe("0 9 ? * 0");
    await click(day(1));
    expect(pressedDays()).toEqual([1]);
    expect(day(1)!.hasAttribute("data-suggested")).toBe(false);
    expect($(".task-sched-days + .field-hint")).toBeNull();
    await click(day(3));
    expect(posted().cronSchedule).toBe("0 9 ? * 1,3");
    // Sunday picked by the user is a day like any other.
    await click(day(0));
    expect(posted().cronSchedule).toBe("0 9 ? * 0,1,3");
  });

  test("the schedule in words below the fields: the server's at first, then live as it changes; the expression label once", async () => {
    await mount(props("30 18 ? * 1,3", false));
    expect(words()).toBe("At 18:30, only on Monday and Wednesday");
    await click(day(5));
    await waitFor(() => words() === "At 18:30, only on Monday, Wednesday, and Friday");
    await click(tab("daily"));
    await type(input("Every (days)"), "2");
    await waitFor(() => words() === "At 18:30, every 2 days in a month");
    // Advanced: the field is the expression, so it is not repeated below it.
    await click(tab("advanced"));
    expect($$(".task-sched .field-label").filter((l) => l.textContent === "Cron expression")).toHaveLength(1);
    expect($('[data-testid="task-cron"]')).toBeNull();
    await type(input("Cron expression"), "0 6 * * MON-FRI");
    await waitFor(() => words() === "At 06:00, Monday through Friday");
    await type(input("Cron expression"), "nonsense");
    expect(words()).toBeNull();
    expect(error()).toBe("Task Schedule Invalid");
  });

  test("the words are in the page's language, the server's and the browser's alike", async () => {
    await mount(props("30 18 ? * 1,3", false, "de_DE"));
    expect(words()).toBe("Um 18:30, nur jeden Montag und Mittwoch");
    await click(day(5));
    await waitFor(() => words() === "Um 18:30, nur jeden Montag, Mittwoch, und Freitag");
  });

  test("an invalid expression or number shows 'Task Schedule Invalid' and marks the input", async () => {
    await mount(props("0 12 * * ?", false));
    expect(mode()).toBe("daily");
    await type(input("Every (days)"), "40");
    expect(error()).toBe("Task Schedule Invalid");
    expect(input("Every (days)").getAttribute("aria-invalid")).toBe("true");
    expect(input("Hour").getAttribute("aria-invalid")).toBeNull();
    await type(input("Every (days)"), "3");
    expect(error()).toBeNull();
    expect(input("Every (days)").getAttribute("aria-invalid")).toBeNull();
    expect(posted().cronSchedule).toBe("0 12 */3 * ?");

    // Weekly with every day unpicked is no schedule either.
    await click(tab("weekly"));
    await click(day(0));
    expect(pressedDays()).toEqual([]);
    expect(error()).toBe("Task Schedule Invalid");

    await click(tab("advanced"));
    await type(input("Cron expression"), "every tuesday");
    expect(error()).toBe("Task Schedule Invalid");
    expect(input("Cron expression").getAttribute("aria-invalid")).toBe("true");
    // The browser will not submit it either.
    expect(input("Cron expression").validity.valid).toBe(false);
  });

  test("a stored expression that is invalid opens in Advanced, marked", async () => {
    await mount(props("61 25 * * *", false));
    expect(mode()).toBe("advanced");
    expect(error()).toBe("Task Schedule Invalid");
    expect(input("Cron expression").getAttribute("aria-invalid")).toBe("true");
  });

  test("hydration carries on with what was set in the plain form before the code came", async () => {
    await mount(props("30 18 ? * 1,3", false), () => {
      $<HTMLInputElement>('input[name="cronSchedule"]')!.value = "0 6 */2 * ?";
    });
    expect(mode()).toBe("daily");
    expect(input("Every (days)").value).toBe("2");
    expect(posted()).toEqual({ scheduled: "on", cronSchedule: "0 6 */2 * ?" });
  });

  test("unticked before the code came: the editor starts switched off", async () => {
    await mount(props(null, true), () => {
      $<HTMLInputElement>('input[name="scheduled"]')!.checked = false;
    });
    expect(switchOn()).toBe(false);
    expect(posted()).toEqual({ scheduled: "", cronSchedule: "" });
  });
});
