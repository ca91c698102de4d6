// The DefinitionEditor island against happy-dom: the script-free form it renders on the server,
// hydration taking over, mode switching, the item dialogs, and Save against a real local server.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Window } from "happy-dom";
import { act } from "react";
import { renderToString } from "react-dom/server";
import { REFERENCE } from "../../locales";
import { makeTranslate } from "../../core/i18n/translate";
import { templateSchema } from "../../core/definition";
import { click, fakePanelApiForFile, installDom, typeInto as type, withI18n, type InstalledDom, referenceMessages } from "../test-support";
import { sampleDefinition } from "./test-fixture";

// ── a real HTTP server standing in for the panel's proxy ──────────────────────────────────────
const posted: { path: string; body: unknown }[] = [];
const api = fakePanelApiForFile(async (request, url) => {
  const match = /^\/proxy\/daemon\/server\/([^/]+)$/.exec(url.pathname);
  if (match && request.method === "POST") {
    const body = await request.json();
    posted.push({ path: url.pathname, body });
    const parsed = templateSchema.safeParse(body);
    if (match[1] === "broken" || !parsed.success) {
      return Response.json({ error: { code: "ErrFieldTooSmall", msg: "too small", metadata: { field: "run.stopCode", min: 1 } } }, { status: 400 });
    }
    return new Response(null, { status: 204 });
  }
  return new Response("not found", { status: 404 });
});

// ── a browser-like global environment ────────────────────────────────────────────────────────
let dom: InstalledDom;
let window: Window;
let reloads = 0;

beforeEach(() => {
  const url = api.url("/server/srv1");
  dom = installDom(url, {
    expose: ["navigator", "HTMLInputElement", "HTMLTextAreaElement", "HTMLSelectElement", "HTMLIFrameElement", "Event", "MouseEvent", "KeyboardEvent"],
    location: { href: url, reload: () => reloads++, assign: () => {} },
    act: true,
    // The browser resolves "/proxy/…" against the page; Bun's fetch needs the origin spelled out.
    pageFetch: true,
  });
  window = dom.window;
  window.document.body.innerHTML = `<div id="toasts"></div><div id="root"></div>`;
  posted.length = 0;
  reloads = 0;
});

afterEach(() => dom.restore());

// ── helpers ──────────────────────────────────────────────────────────────────────────────────
async function load() {
  const island = (await import("../DefinitionEditor")).default;
  // The island sees only the messages it declared, as in the browser (views/components/Island.tsx).
  const t = makeTranslate(referenceMessages(island.messages));
  const element = (props: { serverId: string; definition: object }) => withI18n(<island.component {...props} />, t);
  return { island, element };
}

const $ = <T extends Element = HTMLElement>(selector: string) => window.document.querySelector(selector) as unknown as T | null;
const $$ = (selector: string) => [...window.document.querySelectorAll(selector)] as unknown as HTMLElement[];
const byText = (selector: string, text: string) => $$(selector).find((el) => el.textContent?.trim() === text) ?? null;



/** The input, select or textarea inside the <label class="field"> whose label reads `label`. */
function field(label: string, root: ParentNode = window.document as unknown as ParentNode) {
  const labelEl = [...root.querySelectorAll(".field")].find((f) => f.querySelector(".field-label")?.textContent === label);
  return labelEl?.querySelector("input, select, textarea") ?? null;
}

function toasts(): string[] {
  return $$(".toast").map((t) => t.textContent ?? "");
}

async function openEditor(definition: object = sampleDefinition(), serverId = "srv1") {
  const { element } = await load();
  const { createRoot } = await import("react-dom/client");
  const root = createRoot($("#root")!);
  await act(async () => root.render(element({ serverId, definition })));
  await click($("[data-open-definition]"));
  expect($(".defedit-main")).not.toBeNull();
  return root;
}

const jsonText = () => JSON.parse(($<HTMLTextAreaElement>(".defedit-main textarea.defedit-json")!).value);
const section = (name: string) => click($(`[data-section="${name}"]`));
const mode = (name: "editor" | "json") => click($(`.defedit-head [data-value="${name}"]`));

// ── tests ────────────────────────────────────────────────────────────────────────────────────
describe("without script", () => {
  test("the server renders a <details> overlay with a JSON form posting to the page route", async () => {
    const { Island } = await import("../../views/components/Island");
    const { PageContext } = await import("../../views/context");
    const { island } = await load();
    const page = { t: makeTranslate(REFERENCE), locale: "en_US", islands: [], islandMessages: new Set<string>() } as never;
    const html = renderToString(
      <PageContext.Provider value={page}>
        <Island island={island} props={{ serverId: "srv 1", definition: sampleDefinition() }} />
      </PageContext.Provider>,
    );
    window.document.body.innerHTML = html;
    expect($('[data-island="DefinitionEditor"]')!.getAttribute("data-hydrate")).toBe("interaction");
    expect($("details.modal > summary")!.textContent).toBe("Edit definition");
    const form = $<HTMLFormElement>("details form")!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe("/server/srv%201/definition");
    const textarea = $<HTMLTextAreaElement>('textarea[name="definition"]')!;
    expect(JSON.parse(textarea.value)).toEqual(sampleDefinition());
    expect($('details button[type="submit"]')!.textContent).toBe("Save");
    // every string came from the island's own messages
    expect(window.document.body.textContent).not.toMatch(/definition\.\w/);
  });

  test("hydration replaces it with the editor button, and an overlay opened before carries on", async () => {
    const { element } = await load();
    const { hydrateRoot } = await import("react-dom/client");
    const props = { serverId: "srv1", definition: sampleDefinition() };
    $("#root")!.innerHTML = renderToString(element(props));
    $<HTMLDetailsElement>("details")!.open = true; // the admin clicked before the code arrived
    await act(async () => void hydrateRoot($("#root")!, element(props)));
    expect($("details")).toBeNull();
    expect($("[data-open-definition]")!.textContent).toBe("Edit definition");
    expect($(".defedit-main")).not.toBeNull();
    expect(($<HTMLInputElement>(".defedit-main input[type=text]")!).value).toBe("Paper server");
  });
});

describe("modes", () => {
  test("editor → json → editor → json keeps unknown fields, and edits made in either mode", async () => {
    await openEditor();
    await type(field("Display name"), "Paper (renamed)");
    await mode("json");
    const json = jsonText();
    expect(json.display).toBe("Paper (renamed)");
    expect(json.icon).toBe("creeper.png");
    expect(json.meta).toEqual({ tags: ["survival"], author: { name: "someone" } });
    expect({ ...json, display: "Paper server" }).toEqual(sampleDefinition());

    json.run.workingDirectory = "game";
    json.extra = { kept: true };
    await type($(".defedit-main textarea.defedit-json"), JSON.stringify(json));
    await mode("editor");
    await section("run");
    expect((field("Working directory") as HTMLInputElement).value).toBe("game");
    await mode("json");
    expect(jsonText()).toEqual({ ...sampleDefinition(), display: "Paper (renamed)", run: { ...sampleDefinition().run, workingDirectory: "game" }, extra: { kept: true } });
  });

  test("switching to the editor with invalid JSON shows the invalid-JSON error and stays in json", async () => {
    await openEditor();
    await mode("json");
    await type($(".defedit-main textarea.defedit-json"), '{"display": ');
    await mode("editor");
    expect(toasts()).toContain("The JSON data is invalid");
    expect($(".defedit-main textarea.defedit-json")).not.toBeNull();
    expect($(`.defedit-head [data-value="json"]`)!.getAttribute("aria-pressed")).toBe("true");
  });
});

describe("variables", () => {
  test("a name that is blank or has spaces is refused with the toast and not saved", async () => {
    await openEditor();
    await section("variables");
    expect($$("[data-variable]").map((li) => li.querySelector("strong")!.textContent)).toEqual(["Memory", "EULA"]);
    await click(byText(".defedit-add", "Add variable"));
    const dialog = $(".defedit-sub")!;
    await type(field("Name", dialog), "max players");
    await click($(".defedit-sub [data-apply]"));
    expect(toasts()).toContain("Variable name cannot be blank or contain spaces");
    expect($(".defedit-sub")).not.toBeNull();
    expect($$("[data-variable]")).toHaveLength(2);

    await type(field("Name", dialog), "");
    await click($(".defedit-sub [data-apply]"));
    expect(toasts().filter((t) => t === "Variable name cannot be blank or contain spaces")).toHaveLength(2);

    await type(field("Name", dialog), "maxPlayers");
    await type(field("Type", dialog), "option");
    expect(dialog.textContent).toContain("Options");
    await click($(".defedit-sub [data-apply]"));
    expect($(".defedit-sub")).toBeNull();
    expect($$("[data-variable]").map((li) => li.dataset.variable)).toEqual(["memory", "eula", "maxPlayers"]);
    await mode("json");
    expect(jsonText().data.maxPlayers).toEqual({ display: "", desc: "", type: "option", value: "", required: true, userEdit: true, options: [] });
  });

  test("a new variable is discarded when its dialog is cancelled", async () => {
    await openEditor();
    await section("variables");
    await click(byText(".defedit-add", "Add variable"));
    await type(field("Name", $(".defedit-sub")!), "unsaved");
    await click(byText(".defedit-sub button", "Cancel"));
    expect($(".defedit-sub")).toBeNull();
    expect($$("[data-variable]").map((li) => li.dataset.variable)).toEqual(["memory", "eula"]);
  });
});

describe("shutdown", () => {
  test("switching between command and signal resets the value and writes only one of stop/stopCode", async () => {
    await openEditor();
    await section("shutdown");
    expect((field("Stop command") as HTMLInputElement).value).toBe("stop");
    await click($('.defedit-stop [data-value="signal"]'));
    expect((field("Signal number") as HTMLInputElement).value).toBe("0");
    await type(field("Signal number"), "2");
    await click($('.defedit-stop [data-value="command"]'));
    expect((field("Stop command") as HTMLInputElement).value).toBe("");
    await click($('.defedit-stop [data-value="signal"]'));
    expect((field("Signal number") as HTMLInputElement).value).toBe("0");
    await type(field("Signal number"), "15");
    await mode("json");
    const run = jsonText().run;
    expect(run.stopCode).toBe(15);
    expect("stop" in run).toBe(false);
  });
});

describe("steps", () => {
  test("a new step defaults to command, is dropped when cancelled, and joins the list when applied", async () => {
    await openEditor();
    await section("install");
    const types = () => $$("[data-step-type]").map((li) => li.dataset.stepType);
    expect(types()).toEqual(["mojangdl", "command"]);

    await click(byText(".defedit-add", "Add step"));
    expect((field("Step type", $(".defedit-sub")!) as HTMLSelectElement).value).toBe("command");
    await click(byText(".defedit-sub button", "Cancel"));
    expect(types()).toEqual(["mojangdl", "command"]);

    await click(byText(".defedit-add", "Add step"));
    await click(byText(".defedit-sub .defedit-add", "Add entry"));
    await type($(".defedit-sub .defedit-row input"), "./setup.sh");
    await click($(".defedit-sub [data-apply]"));
    expect(types()).toEqual(["mojangdl", "command", "command"]);
    expect($$("[data-step-type]")[2]!.textContent).toContain("./setup.sh");

    // another type brings its own fields
    await click($$("[data-step-type]")[0]!.querySelector("[data-edit]"));
    await type(field("Step type", $(".defedit-sub")!), "javadl");
    expect((field("Version", $(".defedit-sub")!) as HTMLSelectElement).value).toBe("25");
    await type(field("Version", $(".defedit-sub")!), "8");
    await click($(".defedit-sub [data-apply]"));
    await mode("json");
    expect(jsonText().install).toEqual([{ type: "javadl", version: 8 }, sampleDefinition().install[1], { type: "command", commands: ["./setup.sh"] }]);
  });
});

describe("environment", () => {
  test("port bindings are edited as rows and written back as host:outside:inside/protocol", async () => {
    await openEditor();
    await section("environment");
    const rows = () => $$("[data-port-row]");
    expect(rows()).toHaveLength(2);
    expect([...rows()[1]!.querySelectorAll("input")].map((i) => (i as HTMLInputElement).value)).toEqual(["{ip}", "19132", "19132", "udp"]);
    await click(byText(".defedit-add", "Add port"));
    expect([...rows()[2]!.querySelectorAll("input")].map((i) => (i as HTMLInputElement).value)).toEqual(["{ip}", "", "", "tcp"]);
    await type(rows()[2]!.querySelectorAll("input")[1]!, "8123");
    await mode("json");
    expect(jsonText().environment.portBindings).toEqual(["0.0.0.0:25565:25565/tcp", "19132/udp", "{ip}:8123:8123/tcp"]);
  });
});

describe("save", () => {
  test("Save posts the whole definition, confirms, and reloads the page", async () => {
    await openEditor();
    await type(field("Display name"), "Saved name");
    await click($("[data-save-definition]"));
    await act(async () => Bun.sleep(50));
    expect(posted).toHaveLength(1);
    expect(posted[0]!.path).toBe("/proxy/daemon/server/srv1");
    expect(posted[0]!.body).toEqual({ ...sampleDefinition(), display: "Saved name" });
    expect(toasts()).toContain("Definition saved");
    expect(reloads).toBe(1);
    expect($(".defedit-main")).toBeNull();
  });

  test("an error answer is shown as its translated toast and the overlay stays open", async () => {
    await openEditor(sampleDefinition(), "broken");
    await click($("[data-save-definition]"));
    await act(async () => Bun.sleep(50));
    expect(posted).toHaveLength(1);
    // The shell loads its error texts once per page (here: per test process, maybe from another
    // test file's server), so the expected text comes from the same table; alone it is the English.
    const { shellMessages } = await import("../shell/messages");
    const expected = (await shellMessages())("errors.ErrFieldTooSmall", { field: "run.stopCode", min: 1 });
    if (expected !== "errors.ErrFieldTooSmall") expect(expected).toBe("run.stopCode cannot be smaller than 1");
    expect(toasts()).toContain(expected);
    expect($(".toast-error")!.textContent).toBe(expected);
    expect(reloads).toBe(0);
    expect($(".defedit-main")).not.toBeNull();
    expect($<HTMLButtonElement>("[data-save-definition]")!.disabled).toBe(false);
  });

  test("in json mode, Save posts the text as typed; broken text is refused before any request", async () => {
    await openEditor();
    await mode("json");
    await type($(".defedit-main textarea.defedit-json"), "{oops");
    await click($("[data-save-definition]"));
    expect(toasts()).toContain("The JSON data is invalid");
    expect(posted).toHaveLength(0);
    await type($(".defedit-main textarea.defedit-json"), JSON.stringify({ ...sampleDefinition(), extra: 1 }));
    await click($("[data-save-definition]"));
    await act(async () => Bun.sleep(50));
    expect(posted[0]!.body).toEqual({ ...sampleDefinition(), extra: 1 });
  });
});
