// The Mods tab's island in happy-dom against a real Bun.serve playing /api/servers/{id}/mods: a
// plan shown in full (added, updated old → new, removed, sizes, "required by", each warning as a
// sentence, a blocked plan that cannot be confirmed), a change followed step by step (backup,
// downloads n of m, placing) to done or to failed with the catalogue's sentence, the undo banner,
// a source that does not answer said in the browse pane only, each source's own categories (a
// name CurseForge lists stays text), and a project's page whose Markdown holds <script> and
// <img onerror>, shown as text.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Window } from "happy-dom";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { makeTranslate } from "../core/i18n/translate";
import type { ChangeStatus } from "../core/mods/change";
import type { Plan, VersionPlan } from "../core/mods/types";
import island, { type ModsTabProps } from "./ModsTab";
import { ChangeProgress } from "./mods/ChangeProgress";
import { PlanView } from "./mods/PlanView";
import { VersionPlanView } from "./mods/VersionPlanView";
import { ProjectBody } from "./mods/ProjectDialog";
import type { InstalledEntry, ProjectAnswer } from "./mods/mods-api";
import { fakePanelApiForFile, installDom, referenceMessages, until, withI18n, type InstalledDom } from "./test-support";

const t = makeTranslate(referenceMessages(island.messages));
const html = (node: React.ReactNode) => renderToStaticMarkup(withI18n(node, t));
/** The words of some markup, without the avatars' letters (hidden from readers too). */
const text = (markup: string) => markup.replace(/<span[^>]*aria-hidden="true"[^>]*>[^<]*<\/span>/g, "").replace(/<[^>]+>/g, "").replace(/&gt;/g, ">").replace(/&lt;/g, "<").replace(/&amp;/g, "&").replace(/&#x27;/g, "'");

const LITHIUM: InstalledEntry = { fileName: "lithium-fabric-mc1.20.1-0.11.2.jar", enabled: true, size: 700_000, source: "modrinth", projectId: "gvQqBUqZ", versionId: "ZSNsJrPI", versionNumber: "mc1.20.1-0.11.2", title: "Lithium", updateAvailable: { versionId: "nMhjKWVE", versionNumber: "mc1.20.4-0.12.1" } };
const BY_HAND: InstalledEntry = { fileName: "by-hand.jar", enabled: false, size: 28 };
const file = (over: Partial<Plan["add"][number]>) => ({ source: "modrinth" as const, projectId: "x", versionId: "v", title: "X", versionNumber: "1.0", fileName: "x.jar", size: 1000, url: "https://cdn.modrinth.com/x.jar", ...over });

const GEYSER_PLAN: Plan = {
  planId: "p-geyser",
  folder: "mods",
  add: [file({ projectId: "wKkoqHrH", title: "Geyser", versionNumber: "2.2.0", fileName: "Geyser-Fabric.jar", size: 1_500_000 }), file({ projectId: "P7dR8mSH", title: "Fabric API", versionNumber: "0.97.0", fileName: "fabric-api.jar", size: 2_000_000, requiredBy: "Geyser" })],
  update: [],
  remove: [],
  warnings: [],
  blocked: false,
};

const status = (over: Partial<ChangeStatus>): ChangeStatus => ({ changeId: "0b7c3f52-1d2e-4f60-9a8b-0c1d2e3f4a5b", state: "running", downloaded: 0, total: 2, added: [], removed: [], disabled: [], enabled: [], note: "", at: 1, ...over });

describe("a loader switch, as the dialog shows it", () => {
  const LOADER_PLAN: VersionPlan = { planId: "p-loader", what: "loader", platform: "paper", gameVersion: "1.21.8", from: "57", to: "latest", variable: "build", folder: null, update: [], missing: [] };

  test("from the build it runs to the one chosen, `latest` said as what it means, for the Minecraft version it keeps; no add-on lists", () => {
    const words = text(html(<VersionPlanView plan={LOADER_PLAN} installed={[LITHIUM]} />));
    expect(words).toContain("Paper for Minecraft 1.21.8: 57 → latest (the newest)");
    expect(words).toContain("installed again with Paper latest (the newest) for the same Minecraft version");
    expect(words).not.toContain("Updated for Minecraft");
  });

  test("its progress names the loader version being installed", () => {
    const words = text(html(<ChangeProgress status={status({ step: "install", switchTo: "0.14.12", switchOf: "loader", total: 0 })} />));
    expect(words).toContain("Installing loader 0.14.12");
    expect(words).not.toContain("Installing Minecraft");
  });
});

describe("the plan, as the dialog shows it", () => {
  test("added with sizes and who requires a dependency; updated old → new; removed; the total to download", () => {
    const plan: Plan = {
      ...GEYSER_PLAN,
      update: [file({ projectId: "gvQqBUqZ", title: "Lithium", versionNumber: "mc1.20.4-0.12.1", fileName: "lithium-new.jar", size: 800_000, replaces: LITHIUM.fileName })],
      remove: [{ fileName: "old.jar", title: "Old Mod", size: 50_000 }, { fileName: "by-hand.jar", size: 28 }],
    };
    const out = html(<PlanView plan={plan} installed={[LITHIUM, BY_HAND]} />);
    const words = text(out);
    for (const expected of [
      "Will be added",
      "Geyser2.2.01.5 MB",
      "Fabric API0.97.0required by Geyser2 MB",
      "Will be updatedLithiummc1.20.1-0.11.2 → mc1.20.4-0.12.1800 KB",
      "Will be removedOld Modold.jar50 KBby-hand.jar28 B",
      "To download: 4.3 MB",
    ]) expect(words).toContain(expected);
    expect(out).not.toContain("mods-plan-blocked");
    expect(out).not.toContain("mods-plan-warnings");
  });

  test("each warning is a sentence naming the projects; a blocked plan says why", () => {
    const plan: Plan = {
      ...GEYSER_PLAN,
      warnings: [
        { code: "incompatible", title: "Lithium", other: "Sodium" },
        { code: "wrongLoader", title: "Geyser" },
        { code: "wrongGameVersion", title: "Geyser" },
        { code: "missingDependency", title: "Cloth Config", other: "Geyser" },
      ],
      blocked: true,
    };
    const out = html(<PlanView plan={plan} installed={[]} />);
    const words = text(out);
    for (const expected of [
      "Lithium does not work with Sodium.",
      "The chosen version of Geyser is not made for this server's loader.",
      "The chosen version of Geyser is not made for this server's Minecraft version.",
      "Geyser needs Cloth Config, which has no version for this server: Geyser may not start.",
    ]) expect(words).toContain(expected);
    expect(out).toContain('data-testid="mods-plan-blocked"');
    expect(words).toContain("This cannot be applied");
  });

  test("a plan with nothing to do says so", () => {
    expect(text(html(<PlanView plan={{ ...GEYSER_PLAN, add: [] }} installed={[]} />))).toContain("Nothing to change: this is already installed.");
  });
});

describe("a change's progress", () => {
  const steps = (s: ChangeStatus) => [...html(<ChangeProgress status={s} />).matchAll(/data-step="(\w+)" data-state="(\w+)"[^>]*>.*?<span>([^<]*)<\/span><\/li>/g)].map((m) => `${m[1]}:${m[2]}:${m[3]}`);
  test("backup, then downloading n of m, then placing; done ticks all; failed marks where it stopped", () => {
    expect(steps(status({ step: "backup" }))).toEqual(["backup:current:Taking a backup", "download:pending:Downloading: 0 of 2", "place:pending:Putting the files in place"]);
    expect(steps(status({ step: "download", downloaded: 1 }))).toEqual(["backup:done:Taking a backup", "download:current:Downloading: 1 of 2", "place:pending:Putting the files in place"]);
    expect(steps(status({ step: "place", downloaded: 2 }))).toEqual(["backup:done:Taking a backup", "download:done:Downloading: 2 of 2", "place:current:Putting the files in place"]);
    expect(steps(status({ state: "done", step: "place", downloaded: 2 }))).toEqual(["backup:done:Taking a backup", "download:done:Downloading: 2 of 2", "place:done:Putting the files in place"]);
    expect(steps(status({ state: "failed", step: "download", downloaded: 1 }))).toEqual(["backup:done:Taking a backup", "download:failed:Downloading: 1 of 2", "place:pending:Putting the files in place"]);
  });
  test("a change that downloads nothing has no download step", () => {
    expect(steps(status({ step: "place", total: 0 }))).toEqual(["backup:done:Taking a backup", "place:current:Putting the files in place"]);
  });
  test("a version switch installs after its backup; other changes have no install step", () => {
    expect(steps(status({ step: "install", switchTo: "1.20.1", total: 1 }))).toEqual(["backup:done:Taking a backup", "install:current:Installing Minecraft 1.20.1", "download:pending:Downloading: 0 of 1", "place:pending:Putting the files in place"]);
    expect(steps(status({ step: "backup", switchTo: "1.20.1", total: 0 }))).toEqual(["backup:current:Taking a backup", "install:pending:Installing Minecraft 1.20.1", "place:pending:Putting the files in place"]);
    // A new server's pack waiting for its install: nothing of this change has started.
    expect(steps(status({ step: "install", total: 0 }))).toEqual(["backup:pending:Taking a backup", "place:pending:Putting the files in place"]);
  });
});

// ── the island, hydrated, against a fake panel ──────────────────────────────────────────────
const BASE = "/api/servers/m1/mods";
let requests: { method: string; path: string; body?: unknown }[] = [];
/** What the fake panel answers next, by "METHOD path" (a list is used up one answer at a time, the last one repeated). */
let answers: Map<string, Response[] | (() => Response)>;
const error = (status: number, code: string, metadata: Record<string, unknown> = {}) => Response.json({ error: { code, msg: code, metadata } }, { status });

const api = fakePanelApiForFile(async (request, url) => {
  const path = url.pathname.startsWith(BASE) ? url.pathname.slice(BASE.length) : url.pathname;
  const body = request.method === "POST" ? await request.json().catch(() => undefined) : undefined;
  requests.push({ method: request.method, path: path + url.search, ...(body === undefined ? {} : { body }) });
  const key = `${request.method} ${path}`;
  const answer = answers.get(key);
  if (typeof answer === "function") return answer();
  if (answer && answer.length > 0) return (answer.length > 1 ? answer.shift()! : answer[0]!.clone());
  return error(404, "ErrNotFound", { id: key });
});

let dom: InstalledDom;
let window: Window;
const $ = (selector: string) => window.document.querySelector(selector) as unknown as HTMLElement | null;
const $$ = (selector: string) => [...window.document.querySelectorAll(selector)] as unknown as HTMLElement[];
const element = (props: ModsTabProps) => withI18n(<island.component {...props} />, t);
const PROPS: ModsTabProps = { serverId: "m1", folder: "mods", sources: ["modrinth", "curseforge"], installed: [LITHIUM, BY_HAND], error: null, undoable: null };

beforeEach(() => {
  requests = [];
  answers = new Map([["GET /search", [Response.json({ hits: [{ source: "modrinth", projectId: "wKkoqHrH", slug: "geyser", title: "Geyser", description: "A bridge", downloads: 1234567, categories: [] }], total: 1 })]]]);
  dom = installDom(api.url("/server/m1?tab=mods"), { expose: ["navigator", "HTMLInputElement", "HTMLSelectElement", "Event", "KeyboardEvent", "MouseEvent"], pageFetch: true });
  window = dom.window;
  window.document.body.innerHTML = `<div id="toasts"></div><div id="root"></div>`;
});
afterEach(async () => {
  await dom.restore();
});

/** A user's click; what it changes is waited for with until (the island's answers come from fetch, outside act). */
async function click(el: Element | null) {
  if (!el) throw new Error("nothing to click");
  (el as HTMLElement).click();
  await Bun.sleep(0);
}

async function mount(props: ModsTabProps = PROPS) {
  const root = $("#root")!;
  root.innerHTML = renderToString(element(props));
  const mismatches: unknown[] = [];
  await dom.hydrate(root, element(props), { onRecoverableError: (e) => mismatches.push(e) });
  await until(() => $('[data-testid="mods-island"][data-live]') !== null, 3000, "hydration");
  expect(mismatches).toEqual([]);
}

describe("ModsTab hydrated", () => {
  test("the server render lists what is installed, each control a form that works without script; a file unknown to the source shows as a file", () => {
    const out = renderToString(element(PROPS));
    const words = text(out);
    expect(words).toContain("Installed mods");
    expect(words).toContain("Lithiummc1.20.1-0.11.2 · 700 KBlithium-fabric-mc1.20.1-0.11.2.jarUpdate available → mc1.20.4-0.12.1");
    expect(words).toContain("by-hand.jarNot known to the source · 28 BDisabled");
    expect(out).toMatch(/role="switch"[^>]*aria-checked="false"[^>]*aria-label="Load by-hand.jar"/);
    // Update plans through the tab's page route: the form carries the source and the project.
    expect(out).toMatch(/<form class="mods-action" action="\/server\/m1\/mods\/plan" method="post"><input type="hidden" name="source" value="modrinth"\/><input type="hidden" name="projectId" value="gvQqBUqZ"\/><button type="submit" class="btn btn-primary"[^>]*aria-label="Update Lithium to mc1.20.4-0.12.1"/);
    expect(out).toMatch(/<form class="mods-action" action="\/server\/m1\/mods\/remove" method="post"><input type="hidden" name="fileName" value="by-hand.jar"\/>/);
    expect(out).not.toContain('data-live');
    expect(text(renderToString(element({ ...PROPS, folder: "plugins", installed: [] })))).toContain("No plugins installed yet");
  });

  test("Update makes the plan and shows it; Apply follows the change (backup, 1 of 2, placing) to done; the list refreshes and Undo is offered", async () => {
    const plan: Plan = { ...GEYSER_PLAN, planId: "p-up", add: [GEYSER_PLAN.add[1]!], update: [file({ projectId: "gvQqBUqZ", title: "Lithium", versionNumber: "mc1.20.4-0.12.1", fileName: "lithium-new.jar", replaces: LITHIUM.fileName })] };
    answers.set("POST /plan", [Response.json(plan)]);
    answers.set("POST /plan/p-up/apply", [Response.json(status({ step: "backup" }), { status: 202 })]);
    answers.set("GET /changes/0b7c3f52-1d2e-4f60-9a8b-0c1d2e3f4a5b", [
      Response.json(status({ step: "download", downloaded: 1 })),
      Response.json(status({ step: "place", downloaded: 2 })),
      Response.json(status({ state: "done", step: "place", downloaded: 2, backup: "1a2b3c4d" })),
    ]);
    answers.set("GET /installed", [Response.json([{ ...LITHIUM, fileName: "lithium-new.jar", versionNumber: "mc1.20.4-0.12.1", updateAvailable: undefined }, BY_HAND])]);
    answers.set("GET /changes", [Response.json({ undoable: "0b7c3f52-1d2e-4f60-9a8b-0c1d2e3f4a5b" })]);
    await mount();
    await click($('[aria-label="Update Lithium to mc1.20.4-0.12.1"]'));
    await until(() => $('[data-testid="mods-plan"]') !== null, 3000, "the plan");
    expect(requests.find((r) => r.path === "/plan")!.body).toEqual({ source: "modrinth", projectId: "gvQqBUqZ" });
    const dialog = $('[data-testid="mods-plan-dialog"]')!;
    expect(dialog.getAttribute("aria-label")).toBe("Update Lithium");
    expect(dialog.textContent).toContain("mc1.20.1-0.11.2 → mc1.20.4-0.12.1");
    expect(dialog.textContent).toContain("required by Geyser");
    const seen: string[] = [];
    const watch = setInterval(() => {
      const current = $('.mods-step[data-state="current"]')?.textContent;
      if (current && seen.at(-1) !== current) seen.push(current);
    }, 20);
    await click($('[data-testid="mods-plan-confirm"]'));
    await until(() => $('[data-testid="mods-change-done"]') !== null, 8000, "done");
    clearInterval(watch);
    expect(seen).toEqual(["Taking a backup", "Downloading: 1 of 2", "Putting the files in place"]);
    expect($('[data-testid="mods-change-done"]')!.textContent).toContain("Backup 1a2b3c4d was taken before.");
    await until(() => $('[data-testid="mods-undo"]') !== null, 3000, "the undo banner");
    expect($('[data-file="lithium-new.jar"]')!.textContent).not.toContain("Update available");
    expect(requests.filter((r) => r.path === "/installed")).toHaveLength(1);
  }, 15_000);

  test("a blocked plan cannot be confirmed; Remove plans again with the unneeded dependencies when asked", async () => {
    answers.set("POST /plan", [Response.json({ ...GEYSER_PLAN, warnings: [{ code: "incompatible", title: "Lithium", other: "Sodium" }], blocked: true })]);
    answers.set("POST /remove", () => Response.json({ ...GEYSER_PLAN, add: [], remove: [{ fileName: "by-hand.jar", size: 28 }] }));
    await mount();
    await click($('[aria-label="Update Lithium to mc1.20.4-0.12.1"]'));
    await until(() => $('[data-testid="mods-plan-blocked"]') !== null, 3000, "the blocked plan");
    expect(($('[data-testid="mods-plan-confirm"]') as HTMLButtonElement).disabled).toBe(true);
    expect($('[data-testid="mods-plan-dialog"]')!.textContent).toContain("Lithium does not work with Sodium.");
    await click($('[data-testid="mods-plan-dialog"] .dialog-actions .btn'));
    expect($('[data-testid="mods-plan-dialog"]')).toBeNull();

    await click($('[aria-label="Remove by-hand.jar"]'));
    await until(() => $('[data-testid="mods-plan-remove"]') !== null, 3000, "the removal plan");
    await click($('[data-testid="mods-with-dependencies"]'));
    await until(() => requests.filter((r) => r.path === "/remove").length === 2, 3000, "the plan made again");
    expect(requests.filter((r) => r.path === "/remove").map((r) => r.body)).toEqual([
      { fileNames: ["by-hand.jar"], withUnneededDependencies: false },
      { fileNames: ["by-hand.jar"], withUnneededDependencies: true },
    ]);
  });

  test("a change that fails says the catalogue's sentence and that nothing changed", async () => {
    answers.set("POST /plan", [Response.json(GEYSER_PLAN)]);
    answers.set("POST /plan/p-geyser/apply", [Response.json(status({ step: "download" }), { status: 202 })]);
    answers.set("GET /changes/0b7c3f52-1d2e-4f60-9a8b-0c1d2e3f4a5b", [Response.json(status({ state: "failed", step: "download", error: { code: "ErrModHashMismatch", metadata: { fileName: "Geyser-Fabric.jar" } } }))]);
    await mount();
    await click($('[aria-label="Update Lithium to mc1.20.4-0.12.1"]'));
    await until(() => $('[data-testid="mods-plan-confirm"]') !== null, 3000, "the plan");
    await click($('[data-testid="mods-plan-confirm"]'));
    await until(() => $('[data-testid="mods-change-failed"]') !== null, 5000, "the failure");
    const said = $('[data-testid="mods-change-failed"]')!.textContent;
    expect(said).toContain("The download of Geyser-Fabric.jar does not match the hash its source gives");
    expect(said).toContain("The server's add-ons are as they were before.");
    expect($('.mods-step[data-step="download"]')!.getAttribute("data-state")).toBe("failed");
  });

  test("a source that does not answer is said in the browse pane; the installed list stands", async () => {
    answers.set("GET /search", [error(502, "ErrModSourceUnavailable", { source: "modrinth", reason: "no answer within 10 s" })]);
    await mount();
    await until(() => $('[data-testid="mods-browse-failed"]') !== null, 3000, "the browse pane's message");
    expect($('[data-testid="mods-browse-failed"]')!.textContent).toContain("modrinth did not answer as expected: no answer within 10 s");
    expect($$('[data-testid="mods-row"]')).toHaveLength(2);
    expect(($('[data-testid="mods-remove"]') as HTMLButtonElement).disabled).toBe(false);
  });

  test("the undo banner undoes the last change and reads the lists again", async () => {
    answers.set("POST /changes/0b7c3f52-1d2e-4f60-9a8b-0c1d2e3f4a5b/undo", [Response.json(status({ state: "undone" }))]);
    answers.set("GET /installed", [Response.json([BY_HAND])]);
    answers.set("GET /changes", [Response.json({ undoable: null })]);
    await mount({ ...PROPS, undoable: "0b7c3f52-1d2e-4f60-9a8b-0c1d2e3f4a5b" });
    expect($('[data-testid="mods-undo"]')!.textContent).toContain("The last change can be undone.");
    await click($('[data-testid="mods-undo-button"]'));
    await until(() => $('[data-testid="mods-undo"]') === null, 3000, "the banner to go");
    expect($$('[data-testid="mods-row"]')).toHaveLength(1);
    expect($(".toast")!.textContent).toBe("The last change was undone.");
  });

  test("each source's own categories: Modrinth's in the panel's words; CurseForge's as its answer lists them, only while it is the source", async () => {
    await mount();
    const options = () => $$('[data-testid="mods-category"] option').map((o) => [o.getAttribute("value"), o.textContent]);
    // Modrinth's are the panel's own list, there before any answer; the first search's answer is waited for.
    expect(options()).toContainEqual(["worldgen", "World generation"]);
    await until(() => $('[data-testid="mods-results"]') !== null, 3000, "the first results");
    const curse = Response.json({ hits: [], total: 0, categories: [{ id: "116", name: "Anti-Griefing Tools" }, { id: "9001", name: "<b>Chat</b>" }] });
    answers.set("GET /search", [curse]);
    // A select's change, as a browser makes it.
    const choose = (select: string, value: string) => {
      const el = $(select)!;
      Object.getOwnPropertyDescriptor(window.HTMLSelectElement.prototype, "value")!.set!.call(el, value);
      el.dispatchEvent(new window.Event("change", { bubbles: true }) as unknown as Event);
    };
    choose('[data-testid="mods-source"]', "curseforge");
    await until(() => options().some(([value]) => value === "116"), 3000, "CurseForge's categories");
    expect(options()).toEqual([["", "Any category"], ["116", "Anti-Griefing Tools"], ["9001", "<b>Chat</b>"]]);
    expect($('[data-testid="mods-category"] b')).toBeNull();
    choose('[data-testid="mods-category"]', "116");
    await until(() => requests.some((r) => r.path.includes("category=116")), 3000, "the narrowed search");
    expect(requests.findLast((r) => r.path.startsWith("/search"))!.path).toBe("/search?q=&sort=relevance&page=1&source=curseforge&category=116");
    // Back to Modrinth: its own list again, not CurseForge's, and no category carried over.
    answers.set("GET /search", [Response.json({ hits: [], total: 0 })]);
    choose('[data-testid="mods-source"]', "modrinth");
    const lastSearch = () => requests.findLast((r) => r.path.startsWith("/search"))!.path;
    await until(() => lastSearch().includes("source=modrinth"), 3000, "Modrinth asked again");
    expect(lastSearch()).toBe("/search?q=&sort=relevance&page=1&source=modrinth");
    expect(options()).toContainEqual(["worldgen", "World generation"]);
    expect(options().some(([value]) => value === "116")).toBe(false);
  });

  test("search results show a letter, never an image, and downloads in words; opening one shows its page", async () => {
    const hostile = '<script>alert("x")</script>\n\n<img src=x onerror=alert(1)>\n\n![icon](https://cdn.modrinth.com/icon.png)';
    answers.set("GET /projects/wKkoqHrH", [
      Response.json({ source: "modrinth", projectId: "wKkoqHrH", slug: "geyser", title: "Geyser", description: "A bridge", body: hostile, iconUrl: "https://cdn.modrinth.com/icon.png", downloads: 1234567, license: "MIT", versions: [{ versionId: "CeSpw2Km", versionNumber: "2.2.0", versionType: "release", gameVersions: ["1.20.4"], loaders: ["fabric"], published: "", fits: true }, { versionId: "old", versionNumber: "1.0.0", versionType: "beta", gameVersions: ["1.19"], loaders: ["fabric"], published: "", fits: false }] } satisfies ProjectAnswer),
    ]);
    await mount();
    await until(() => $('[data-testid="mods-results"]') !== null, 3000, "the results");
    expect(requests.find((r) => r.path.startsWith("/search"))!.path).toBe("/search?q=&sort=relevance&page=1&source=modrinth");
    const hit = $('[data-project="wKkoqHrH"]')!;
    expect(hit.querySelector("img")).toBeNull();
    expect(hit.querySelector(".mods-avatar")!.textContent).toBe("G");
    expect(hit.textContent).toContain("1,234,567 downloads");
    await click(hit.querySelector(".mods-link"));
    await until(() => $('[data-testid="mods-install"]') !== null, 3000, "the project");
    const page = $('[data-testid="mods-project-dialog"]')!;
    expect(page.querySelector("script, img, [onerror]")).toBeNull();
    expect(page.textContent).toContain('<script>alert("x")</script>');
    expect(page.textContent).toContain("<img src=x onerror=alert(1)>");
    expect(page.textContent).toContain("Licence: MIT");
    expect(page.querySelector('[data-version="CeSpw2Km"]')!.textContent).toContain("Fits this server");
    expect(page.querySelector('[data-version="old"]')!.textContent).toContain("Other Minecraft versions");
    answers.set("POST /plan", [Response.json(GEYSER_PLAN)]);
    await click(page.querySelector('[aria-label="Install version 1.0.0"]'));
    await until(() => $('[data-testid="mods-plan"]') !== null, 3000, "the plan");
    expect(requests.find((r) => r.path === "/plan")!.body).toEqual({ source: "modrinth", projectId: "wKkoqHrH", versionId: "old" });
    expect($('[data-testid="mods-plan-dialog"]')!.getAttribute("aria-label")).toBe("Install Geyser 1.0.0");
  });
});

describe("a project's page on the server", () => {
  test("its Markdown body is text: no script, no image, no handler", () => {
    const project = { source: "modrinth", projectId: "p", slug: null, title: "P", description: "d", body: "<script>alert(1)</script> <img src=x onerror=alert(1)>", downloads: 1, license: null, versions: [] } as unknown as ProjectAnswer;
    const out = html(<ProjectBody serverId="s1" project={project} hydrated={false} onInstall={() => {}} />);
    expect(out).not.toMatch(/<script|<img|<[^>]+\sonerror=/);
    expect(out).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;");
    expect(out).toContain("It has no version for this server&#x27;s loader.");
  });
});
