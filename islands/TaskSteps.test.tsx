// The TaskSteps island against happy-dom: the script-free textarea the server renders, hydration
// taking over with the step list, and the list's edits (add, cancel, types with and without fields,
// edit, reorder, remove) always mirrored as JSON in the hidden `operations` input the form posts.
import { describe, expect, test } from "bun:test";
import type { Window } from "happy-dom";
import { renderToString } from "react-dom/server";
import { REFERENCE } from "../locales";
import { makeTranslate } from "../core/i18n/translate";
import { OPERATION_TYPES, TASK_ONLY_TYPES } from "../core/tasks/constants";
import { operationSchema } from "../core/tasks/schema";
import island, { catalogueFor, type TaskStepsProps } from "./TaskSteps";
import { TASK_OPERATIONS, newStep, stepForEditing, stepForSaving, stepSummary } from "./definition/step-fields";
import { click, formIslandPerTest, referenceMessages, typeInto as type, withI18n } from "./test-support";

const OPERATIONS: TaskStepsProps["initial"] = [
  { type: "console", command: "say Restarting in 30 seconds" },
  { type: "sleep", seconds: 30 },
  { type: "restart" },
];

let window: Window;
const hydrateIsland = formIslandPerTest(
  "http://localhost/server/srv1?tab=tasks",
  { expose: ["navigator", "HTMLInputElement", "HTMLTextAreaElement", "HTMLSelectElement", "Event", "KeyboardEvent"], formId: "task" },
  (dom) => (window = dom.window),
);

// ── helpers ──────────────────────────────────────────────────────────────────────────────────
// The island sees only the messages it declared, as in the browser (views/components/Island.tsx).
const t = makeTranslate(referenceMessages(island.messages));
/** What an admin may use: every operation. */
const ALL_TYPES = [...OPERATION_TYPES];
const element = (initial: TaskStepsProps["initial"], types: string[] = ALL_TYPES) => withI18n(<island.component initial={initial} types={types} />, t);

const $ = <T extends Element = HTMLElement>(selector: string, root: ParentNode = window.document as unknown as ParentNode) => root.querySelector(selector) as unknown as T | null;
const $$ = (selector: string) => [...window.document.querySelectorAll(selector)] as unknown as HTMLElement[];
const byText = (selector: string, text: string) => $$(selector).find((el) => el.textContent?.trim() === text) ?? null;
const dialog = () => $(".defedit-sub");
const rows = () => $$("[data-step-type]");
const types = () => rows().map((li) => li.dataset.stepType);
const labels = () => rows().map((li) => li.querySelector("strong")!.textContent);
/** What the form would post: the hidden input's JSON. */
const posted = () => JSON.parse($<HTMLInputElement>('input[type="hidden"][name="operations"]')!.value);



/** The input, select or textarea inside the <label class="field"> whose label reads `label`. */
function field<T extends Element = HTMLInputElement>(label: string, root: ParentNode = dialog()!) {
  const labelEl = [...root.querySelectorAll(".field")].find((f) => f.querySelector(".field-label")?.textContent === label);
  return (labelEl?.querySelector("input, select, textarea") ?? null) as unknown as T | null;
}

/** Renders on the "server", then hydrates as the browser does, which must find what it renders first. */
async function mount(initial: TaskStepsProps["initial"] = OPERATIONS, types: string[] = ALL_TYPES) {
  expect(await hydrateIsland(element(initial, types))).toEqual([]);
}

async function addStep(stepType: string) {
  await click(byText(".defedit-add", "Add step"));
  await type(field<HTMLSelectElement>("Step type"), stepType);
}

const apply = () => click($("[data-apply]", dialog()!));

// ── tests ────────────────────────────────────────────────────────────────────────────────────
describe("the task catalogue", () => {
  test("offers the task-only types first, then every install step; a new operation is a console command", () => {
    expect(TASK_OPERATIONS.types.slice(0, TASK_ONLY_TYPES.length)).toEqual([...TASK_ONLY_TYPES]);
    expect(TASK_OPERATIONS.types).toContain("steamgamedl");
    expect(newStep(undefined, TASK_OPERATIONS)).toEqual({ type: "console", command: "" });
    expect(newStep("sleep", TASK_OPERATIONS)).toEqual({ type: "sleep", seconds: 1 });
    expect(newStep("console", TASK_OPERATIONS)).toEqual({ type: "console", command: "" });
    expect(newStep("kill", TASK_OPERATIONS)).toEqual({ type: "kill" });
    // The template catalogue, the default, has PufferPanel v3's own sleep and console steps, with their fields.
    expect(newStep("sleep")).toEqual({ type: "sleep", duration: "" });
    expect(newStep("console")).toEqual({ type: "console", message: "" });
  });

  test("cut down to what a user may use: a new step is a console command when offered, else the first offered", () => {
    expect(catalogueFor(["sleep", "console", "start"])).toMatchObject({ types: ["console", "start", "sleep"], defaultType: "console" });
    expect(catalogueFor(["sleep", "stop"])).toMatchObject({ types: ["stop", "sleep"], defaultType: "stop" });
    expect(catalogueFor(ALL_TYPES).types).toEqual([...new Set(TASK_OPERATIONS.types)]);
  });

  test("seconds are saved as a number; the summary shows the first field", () => {
    expect(stepForSaving({ type: "sleep", seconds: "45" }, TASK_OPERATIONS)).toEqual({ type: "sleep", seconds: 45 });
    expect(stepForEditing({ type: "sleep" }, TASK_OPERATIONS)).toEqual({ type: "sleep", seconds: 1 });
    expect(stepSummary({ type: "console", command: "save-all" }, TASK_OPERATIONS)).toBe("save-all");
    expect(stepSummary({ type: "sleep", seconds: 30 }, TASK_OPERATIONS)).toBe("30");
    expect(stepSummary({ type: "stop" }, TASK_OPERATIONS)).toBe("");
  });

  test("every fresh operation, filled in, is one the task schema takes", () => {
    const filled = { console: { command: "say hi" }, sleep: {}, waitForConsole: { pattern: "Done (" }, webhook: { webhook: 1, text: "restarting soon" } } as Record<string, object>;
    for (const opType of TASK_ONLY_TYPES) {
      expect(operationSchema.safeParse({ ...newStep(opType, TASK_OPERATIONS), ...filled[opType] }).success).toBe(true);
    }
  });
});

describe("without script", () => {
  test("the server renders a labelled textarea named operations holding the JSON, hydrating at load", async () => {
    const { Island } = await import("../views/components/Island");
    const { PageContext } = await import("../views/context");
    const page = { t: makeTranslate(REFERENCE), locale: "en_US", islands: [], islandMessages: new Set<string>() } as never;
    $("#root")!.innerHTML = renderToString(
      <PageContext.Provider value={page}>
        <Island island={island} props={{ initial: OPERATIONS, types: ALL_TYPES }} />
      </PageContext.Provider>,
    );
    expect($('[data-island="TaskSteps"]')!.getAttribute("data-hydrate")).toBe("load");
    const textarea = field<HTMLTextAreaElement>("Steps", window.document as unknown as ParentNode)!;
    expect(textarea.getAttribute("name")).toBe("operations");
    expect(textarea.value).toBe(JSON.stringify(OPERATIONS, null, 2));
    expect($('input[name="operations"]')).toBeNull();
    expect(rows()).toHaveLength(0);
    // Every string came from the island's own messages.
    expect(window.document.body.textContent).not.toMatch(/(definition|tasks|common)\.\w/);
  });
});

describe("hydrated", () => {
  test("the textarea gives way to the list, each operation shown by its type, and the hidden input", async () => {
    await mount();
    expect($("textarea")).toBeNull();
    expect(labels()).toEqual(["Console command", "Wait", "Restart server"]);
    expect(rows()[0]!.textContent).toContain("say Restarting in 30 seconds");
    expect($("[role=group]")!.getAttribute("aria-label")).toBe("Steps");
    expect(posted()).toEqual(OPERATIONS);
    // The one field the form posts is the hidden input.
    expect($$('[name="operations"]')).toHaveLength(1);
    expect(window.document.body.textContent).not.toMatch(/(definition|tasks|common)\.\w/);
  });

  test("an empty task shows no steps and posts an empty list", async () => {
    await mount([]);
    expect($(".defedit-steps")!.textContent).toContain("No steps yet.");
    expect(posted()).toEqual([]);
  });
});

describe("editing", () => {
  test("a new step defaults to a console command, offers the task-only types first, and is dropped when cancelled", async () => {
    await mount();
    await click(byText(".defedit-add", "Add step"));
    const select = field<HTMLSelectElement>("Step type")!;
    expect(select.value).toBe("console");
    expect(field("Command")!.value).toBe("");
    expect([...select.options].slice(0, TASK_ONLY_TYPES.length).map((o) => o.value)).toEqual([...TASK_ONLY_TYPES]);
    expect([...select.options].map((o) => o.textContent)).toContain("Kill server");
    await click(byText(".defedit-sub button", "Cancel"));
    expect(dialog()).toBeNull();
    expect(types()).toEqual(["console", "sleep", "restart"]);
    expect(posted()).toEqual(OPERATIONS);
  });

  test("a user who is no admin is offered only the operations they may use", async () => {
    await mount([], ["console", "sleep", "restart", "mkdir"]);
    await click(byText(".defedit-add", "Add step"));
    const select = field<HTMLSelectElement>("Step type")!;
    expect([...select.options].map((o) => o.value)).toEqual(["console", "restart", "sleep", "mkdir"]);
    expect(select.value).toBe("console");
  });

  test("sleep has a seconds field, and is posted with its seconds as a number", async () => {
    await mount();
    await addStep("sleep");
    const seconds = field("Seconds")!;
    expect(seconds.type).toBe("number");
    expect(seconds.value).toBe("1");
    await type(seconds, "90");
    await apply();
    expect(dialog()).toBeNull();
    expect(labels().at(-1)).toBe("Wait");
    expect(posted().at(-1)).toEqual({ type: "sleep", seconds: 90 });
  });

  test("start has no fields besides its type, and is posted as just its type", async () => {
    await mount();
    await addStep("start");
    expect([...dialog()!.querySelectorAll("input, textarea, select")]).toHaveLength(1);
    await apply();
    expect(posted()).toEqual([...OPERATIONS, { type: "start" }]);
  });

  test("a console step's command is edited in its dialog", async () => {
    await mount();
    await click($("[data-edit]", rows()[0]!));
    const command = field("Command")!;
    expect(command.value).toBe("say Restarting in 30 seconds");
    await type(command, "say Back soon");
    await apply();
    expect(rows()[0]!.textContent).toContain("say Back soon");
    expect(posted()[0]).toEqual({ type: "console", command: "say Back soon" });
  });

  test("an install step can be added too", async () => {
    await mount([]);
    await addStep("mkdir");
    await type(field("Target"), "backups");
    await apply();
    expect(posted()).toEqual([{ type: "mkdir", target: "backups" }]);
  });

  test("steps are reordered and removed, and the posted list follows", async () => {
    await mount();
    await click($('[aria-label="Move down"]', rows()[0]!));
    expect(types()).toEqual(["sleep", "console", "restart"]);
    expect(posted()).toEqual([OPERATIONS[1], OPERATIONS[0], OPERATIONS[2]]);
    await click($('[aria-label="Move up"]', rows()[2]!));
    expect(types()).toEqual(["sleep", "restart", "console"]);
    expect(posted()).toEqual([OPERATIONS[1], OPERATIONS[2], OPERATIONS[0]]);
    await click($('[aria-label="Remove"]', rows()[0]!));
    expect(types()).toEqual(["restart", "console"]);
    expect(posted()).toEqual([OPERATIONS[2], OPERATIONS[0]]);
  });
});
