// The TemplateEditor island against happy-dom: the script-free JSON form it renders first, the
// template sections (Environments, the program + arguments), the environment list, the
// editor/JSON switch with invalid text, the version-1 conversion offer, and Save against a local
// server standing in for /api/templates (name checks on Add).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Window } from "happy-dom";
import { act } from "react";
import { renderToString } from "react-dom/server";
import { REFERENCE } from "../../locales";
import { makeTranslate } from "../../core/i18n/translate";
import { templateSchema } from "../../core/definition";
import { splitCommandLine } from "../../core/definition/command-line";
import { substitute } from "../../core/definition/substitute";
import { convertV1Template } from "../../core/definition/v1";
import { click, fakePanelApiForFile, installDom, typeInto as type, withI18n, type InstalledDom, referenceMessages } from "../test-support";
import type { TemplateEditorProps } from "../TemplateEditor";

// ── a real HTTP server standing in for /api/templates ─────────────────────────────────────────
const requests: { method: string; path: string; body?: unknown }[] = [];
const api = fakePanelApiForFile(async (request, url) => {
  const match = /^\/api\/templates\/([^/]+)$/.exec(url.pathname);
  if (!match) return new Response("not found", { status: 404 });
  const id = decodeURIComponent(match[1]!);
  if (request.method === "GET") {
    requests.push({ method: "GET", path: url.pathname });
    // "taken" is stored already; nothing else is
    return id === "taken" ? Response.json({ ...templateFixture(), id }) : Response.json({ error: { code: "ErrNoTemplate", msg: "ErrNoTemplate", metadata: { name: id } } }, { status: 404 });
  }
  if (request.method === "PUT") {
    const body = await request.json();
    requests.push({ method: "PUT", path: url.pathname, body });
    return Response.json({ ...templateSchema.parse(body), id });
  }
  return new Response("method not allowed", { status: 405 });
});

// ── a browser-like global environment ────────────────────────────────────────────────────────
let dom: InstalledDom;
let window: Window;
const assigned: string[] = [];

beforeEach(() => {
  const url = api.url("/template/paper");
  dom = installDom(url, {
    expose: ["navigator", "HTMLInputElement", "HTMLTextAreaElement", "HTMLSelectElement", "HTMLIFrameElement", "Event", "MouseEvent", "KeyboardEvent"],
    location: { href: url, reload: () => {}, assign: (to: string) => assigned.push(to) },
    act: true,
    // The browser resolves "/api/…" against the page; Bun's fetch needs the origin spelled out.
    pageFetch: true,
  });
  window = dom.window;
  window.document.body.innerHTML = `<div id="toasts"></div><div id="root"></div>`;
  requests.length = 0;
  assigned.length = 0;
});

afterEach(() => dom.restore());

// ── fixtures ─────────────────────────────────────────────────────────────────────────────────
/** A template as stored (schema defaults filled in), with two environments and a field Kiln does not know. */
function templateFixture() {
  return {
    ...templateSchema.parse({
      name: "paper",
      display: "Paper",
      type: "minecraft-java",
      readme: "# Paper\n\nA **fast** server.",
      install: [{ type: "mojangdl", version: "1.20.4", target: "server.jar" }],
      run: { command: "java -Xmx${memory}M -jar server.jar nogui", stop: "stop", environmentVars: { TZ: "UTC" } },
      data: { memory: { display: "Memory (MB)", type: "integer", value: 1024 } },
      environment: { type: "standard" },
      supportedEnvironments: [
        { type: "standard" },
        { type: "docker", image: "eclipse-temurin:17-jre", networkMode: "host", networkName: "", bindings: {}, portBindings: ["25565/tcp"] },
      ],
    }),
    icon: "paper.png",
  };
}

/** A 1.x template as PufferPanel 1.x shipped them. */
const V1_SPIGOT = {
  pufferd: {
    type: "java",
    display: "Spigot - Minecraft",
    install: { commands: [{ type: "download", files: "https://example.com/BuildTools.jar" }, { source: "spigot-*.jar", target: "server.jar", type: "move" }] },
    run: { stop: "stop", pre: [], post: [], program: "java", arguments: ["-Xmx${memory}M", "-jar", "server.jar"], environmentVars: {} },
    environment: { type: "docker", image: "openjdk:8" },
    data: { memory: { value: "1024", required: true, desc: "Heap in MB", display: "Memory (MB)", internal: false, type: "integer" } },
  },
};

// ── helpers ──────────────────────────────────────────────────────────────────────────────────
async function load() {
  const island = (await import("../TemplateEditor")).default;
  // The island sees only the messages it declared, as in the browser (views/components/Island.tsx).
  const t = makeTranslate(referenceMessages(island.messages));
  const element = (props: TemplateEditorProps) => withI18n(<island.component {...props} />, t);
  return { island, element };
}

const $ = <T extends Element = HTMLElement>(selector: string) => window.document.querySelector(selector) as unknown as T | null;
const $$ = (selector: string) => [...window.document.querySelectorAll(selector)] as unknown as HTMLElement[];
const byText = (selector: string, text: string) => $$(selector).find((el) => el.textContent?.trim() === text) ?? null;

/** The input, select or textarea inside the <label class="field"> whose label reads `label`. */
function field<T = HTMLInputElement>(label: string, root: ParentNode = window.document as unknown as ParentNode): T {
  const labelEl = [...root.querySelectorAll(".field")].find((f) => f.querySelector(".field-label")?.textContent === label);
  return (labelEl?.querySelector("input, select, textarea") ?? null) as T;
}

const toasts = () => $$(".toast").map((t) => t.textContent ?? "");

/** Mounts the island (it hydrates on load: the editor takes over from the plain form in an effect). */
async function mount(props: Partial<TemplateEditorProps> = {}) {
  const { element } = await load();
  const { createRoot } = await import("react-dom/client");
  const root = createRoot($("#root")!);
  const all: TemplateEditorProps = { templateId: "paper", template: templateFixture(), canEdit: true, action: "/template/paper", ...props };
  await act(async () => root.render(element(all)));
  expect($("[data-template-editor]")).not.toBeNull();
  return root;
}

const jsonArea = () => $<HTMLTextAreaElement>(".defedit-body textarea.defedit-json");
const jsonText = () => JSON.parse(jsonArea()!.value);
const section = (name: string) => click($(`[data-section="${name}"]`));
const mode = (name: "editor" | "json") => click($(`.defedit-toolbar [data-value="${name}"]`));
const pressed = (name: "editor" | "json") => $(`.defedit-toolbar [data-value="${name}"]`)!.getAttribute("aria-pressed") === "true";
/** Clicks Save and waits until the save is over (the button is disabled while it runs). */
const save = async () => {
  await click($("[data-save-template]"));
  const deadline = Date.now() + 5000;
  do await act(async () => Bun.sleep(10));
  while ($<HTMLButtonElement>("[data-save-template]")?.disabled && Date.now() < deadline);
};
const environments = () => $$("[data-environment]").map((li) => li.dataset.environment);
const defaultBadge = () => $$("[data-environment]").filter((li) => li.querySelector(".badge")).map((li) => li.dataset.environment);
const options = (select: HTMLSelectElement) => [...select.options].map((o) => o.value);
const argumentInputs = () => [...$("[data-panel=run] fieldset")!.querySelectorAll("input")] as unknown as HTMLInputElement[];

// ── tests ────────────────────────────────────────────────────────────────────────────────────
describe("without script", () => {
  test("the server renders a JSON form posting to the page; Add has a name field; view-only has no Save", async () => {
    const { Island } = await import("../../views/components/Island");
    const { PageContext } = await import("../../views/context");
    const { island } = await load();
    const page = () => ({ t: makeTranslate(REFERENCE), locale: "en_US", islands: [], islandMessages: new Set<string>() }) as never;
    const render = (props: TemplateEditorProps) =>
      renderToString(
        <PageContext.Provider value={page()}>
          <Island island={island} props={props} />
        </PageContext.Provider>,
      );

    window.document.body.innerHTML = render({ templateId: "paper", template: templateFixture(), canEdit: true, action: "/template/paper" });
    expect($('[data-island="TemplateEditor"]')!.getAttribute("data-hydrate")).toBe("load");
    const form = $<HTMLFormElement>("form")!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe("/template/paper");
    expect(JSON.parse($<HTMLTextAreaElement>('textarea[name="template"]')!.value)).toEqual(templateFixture());
    expect($('input[name="name"]')).toBeNull();
    expect($('button[type="submit"]')!.textContent).toBe("Save");
    expect(window.document.body.textContent).not.toMatch(/(definition|templates)\.\w/);

    window.document.body.innerHTML = render({ template: templateFixture(), text: "{ broken", canEdit: true, action: "/addtemplate" });
    expect($('input[name="name"]')).not.toBeNull();
    expect($<HTMLTextAreaElement>('textarea[name="template"]')!.value).toBe("{ broken");

    window.document.body.innerHTML = render({ templateId: "paper", template: templateFixture(), canEdit: false, action: "/template/paper" });
    expect($('button[type="submit"]')).toBeNull();
    expect($<HTMLTextAreaElement>('textarea[name="template"]')!.readOnly).toBe(true);
  });

  test("hydration replaces the form with the editor", async () => {
    const { element } = await load();
    const props: TemplateEditorProps = { templateId: "paper", template: templateFixture(), canEdit: true, action: "/template/paper" };
    $("#root")!.innerHTML = renderToString(element(props));
    expect($('textarea[name="template"]')).not.toBeNull();
    const { hydrateRoot } = await import("react-dom/client");
    await act(async () => void hydrateRoot($("#root")!, element(props)));
    expect($('textarea[name="template"]')).toBeNull();
    expect($("[data-template-editor]")).not.toBeNull();
    expect(pressed("editor")).toBe(true);
    expect(field("Display name").value).toBe("Paper");
  });
});

describe("editor mode", () => {
  test("shows the template sections: Environments instead of Environment, and a readme", async () => {
    await mount();
    const labels = $$("[data-section]").map((b) => b.querySelector("span")!.textContent);
    expect(labels).toEqual(["General", "Variables", "Install steps", "Run Configuration", "Shutdown", "Pre Run Hook", "Post Run Hook", "Environment variables", "Variable groups", "Environments"]);
    expect(labels).not.toContain("Environment");
    expect(field<HTMLTextAreaElement>("Readme").value).toBe("# Paper\n\nA **fast** server.");
    await section("environments");
    expect($("[data-panel=environments] h3")!.textContent).toBe("Environments");
    expect($('[data-section="environments"] .defedit-count')!.textContent).toBe("2");
  });

  test("a user who may not edit gets no Save", async () => {
    await mount({ canEdit: false });
    expect($("[data-save-template]")).toBeNull();
  });
});

describe("environment list", () => {
  test("add offers only the types not listed; edit, remove the default (the first one takes over), and Save PUTs it", async () => {
    await mount();
    await section("environments");
    expect(environments()).toEqual(["standard", "docker"]);
    expect(defaultBadge()).toEqual(["standard"]);
    expect($('[data-environment="docker"] code')!.textContent).toBe("eclipse-temurin:17-jre");

    // Add: only tty and host are left to offer
    await click(byText(".defedit-add", "Add environment"));
    const dialog = $(".defedit-sub")!;
    expect(dialog.querySelector("h2")!.textContent).toBe("Add environment");
    expect(options(field<HTMLSelectElement>("Environment type", dialog))).toEqual(["tty", "host"]);
    await click($(".defedit-sub [data-apply]"));
    expect($(".defedit-sub")).toBeNull();
    expect(environments()).toEqual(["standard", "docker", "tty"]);
    await click(byText(".defedit-add", "Add environment"));
    expect(options(field<HTMLSelectElement>("Environment type", $(".defedit-sub")!))).toEqual(["host"]);
    await click($(".defedit-sub [data-apply]"));
    expect(environments()).toEqual(["standard", "docker", "tty", "host"]);
    // all four are there: no Add any more
    expect(byText(".defedit-add", "Add environment")).toBeNull();
    expect($("[data-panel=environments]")!.textContent).toContain("Every kind of environment is in the list.");

    // Edit docker: its type can only stay docker; change the image
    await click($('[data-environment="docker"] [data-edit]'));
    expect($(".defedit-sub h2")!.textContent).toBe("Edit environment");
    expect(options(field<HTMLSelectElement>("Environment type", $(".defedit-sub")!))).toEqual(["docker"]);
    await type(field("Container image", $(".defedit-sub")!), "eclipse-temurin:21-jre");
    await click($(".defedit-sub [data-apply]"));
    expect($('[data-environment="docker"] code')!.textContent).toBe("eclipse-temurin:21-jre");

    // Remove standard, the default: docker is first now, and becomes the default
    await click($('[data-environment="standard"] .defedit-remove'));
    expect(environments()).toEqual(["docker", "tty", "host"]);
    expect(defaultBadge()).toEqual(["docker"]);
    expect(field<HTMLSelectElement>("Default environment").value).toBe("docker");
    expect(byText(".defedit-add", "Add environment")).not.toBeNull();

    await save();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: "PUT", path: "/api/templates/paper" });
    const body = requests[0]!.body as Record<string, unknown>;
    const docker = { type: "docker", image: "eclipse-temurin:21-jre", networkMode: "host", networkName: "", bindings: {}, portBindings: ["25565/tcp"] };
    expect(body.supportedEnvironments).toEqual([docker, { type: "tty" }, { type: "host" }]);
    expect(body.environment).toEqual(docker);
    // everything else as it was, the unknown field too
    const { environment: _e, supportedEnvironments: _s, ...rest } = templateFixture();
    expect(body).toMatchObject(rest);
    expect(toasts()).toContain("Template saved");
    // editing a stored template stays on its page
    expect(assigned).toEqual([]);
  });

  test("choosing another default writes that entry as the environment", async () => {
    await mount();
    await section("environments");
    await type(field<HTMLSelectElement>("Default environment"), "docker");
    expect(defaultBadge()).toEqual(["docker"]);
    await mode("json");
    const json = jsonText();
    expect(json.environment).toEqual(templateFixture().supportedEnvironments[1]);
    expect(json.supportedEnvironments).toEqual(templateFixture().supportedEnvironments);
  });
});

describe("run configuration", () => {
  test("program and arguments are written as one command line that splits back into the same words", async () => {
    await mount();
    await section("run");
    expect(field("Command").value).toBe("java");
    expect(argumentInputs().map((i) => i.value)).toEqual(["-Xmx${memory}M", "-jar", "server.jar", "nogui"]);

    await type(field("Command"), "/opt/java 21/bin/java");
    await type(argumentInputs()[3]!, "Bob's Hall");
    await click(byText("[data-panel=run] .defedit-add", "Add entry"));
    await type(argumentInputs()[4]!, "--motd=${motd}");
    await click(byText("[data-panel=run] .defedit-add", "Add entry"));
    await type(argumentInputs()[5]!, 'say "hi" \\ $HOME');
    const argv = ["/opt/java 21/bin/java", "-Xmx${memory}M", "-jar", "server.jar", "Bob's Hall", "--motd=${motd}", 'say "hi" \\ $HOME'];
    expect([field("Command").value, ...argumentInputs().map((i) => i.value)]).toEqual(argv);

    const preview = $("[data-command-line]")!.textContent!;
    expect(splitCommandLine(preview)).toEqual(argv);
    await mode("json");
    const command = jsonText().run.command as string;
    expect(command).toBe(preview);
    expect(splitCommandLine(command)).toEqual(argv);
    // the node substitutes before it splits: a value with a space stays inside its argument
    const words = splitCommandLine(substitute(command, { memory: 2048, motd: "Hello world" }));
    expect(words).toEqual(["/opt/java 21/bin/java", "-Xmx2048M", "-jar", "server.jar", "Bob's Hall", "--motd=Hello world", 'say "hi" \\ $HOME']);
  });

  test("removing an argument and clearing everything", async () => {
    await mount();
    await section("run");
    await click(argumentInputs()[3]!.parentElement!.querySelector(".defedit-remove"));
    // written back word by word: the one with a ${variable} in double quotes
    expect($("[data-command-line]")!.textContent).toBe('java "-Xmx${memory}M" -jar server.jar');
    for (let i = argumentInputs().length - 1; i >= 0; i--) await click(argumentInputs()[i]!.parentElement!.querySelector(".defedit-remove"));
    await type(field("Command"), "");
    await mode("json");
    expect(jsonText().run.command).toBe("");
  });
});

describe("editor and JSON", () => {
  test("invalid JSON: the toast, the place it breaks, the text kept, and JSON mode kept", async () => {
    await mount();
    await mode("json");
    expect(pressed("json")).toBe(true);
    const broken = '{"display": "x",\n  "run": oops}';
    await type(jsonArea(), broken);
    await mode("editor");
    expect(toasts()).toContain("The JSON data is invalid");
    expect($("[data-json-error]")!.textContent).toBe("Invalid JSON at line 2, column 10. Fix it here; nothing was converted or saved.");
    expect(jsonArea()!.value).toBe(broken);
    expect(jsonArea()!.getAttribute("aria-invalid")).toBe("true");
    expect(pressed("json")).toBe(true);
    expect($("[data-section]")).toBeNull();

    // Save refuses it too, before any request
    await save();
    expect(toasts().filter((t) => t === "The JSON data is invalid")).toHaveLength(2);
    expect(requests).toHaveLength(0);

    // typing clears the error; fixed text goes into the editor
    await type(jsonArea(), '{"display": "x",\n  "run": {"command": "ok"}}');
    expect($("[data-json-error]")).toBeNull();
    await mode("editor");
    expect(pressed("editor")).toBe(true);
    expect(field("Display name").value).toBe("x");
  });

  test("a posted text that was not JSON opens in JSON mode, as typed, with where it breaks", async () => {
    await mount({ text: '{"display": ' });
    expect(pressed("json")).toBe(true);
    expect(jsonArea()!.value).toBe('{"display": ');
    expect($("[data-json-error]")!.textContent).toBe("Invalid JSON at line 1, column 13. Fix it here; nothing was converted or saved.");
    expect(toasts()).toEqual([]);
  });

  test("JSON → editor → JSON keeps every field, unknown ones included", async () => {
    await mount();
    expect(pressed("editor")).toBe(true);
    await mode("json");
    expect(jsonText()).toEqual(templateFixture());

    const edited = { ...templateFixture(), display: "Paper (edited)", extra: { nested: [1, { two: true }] }, requirements: { os: "linux" } };
    edited.run = { ...edited.run, workingDirectory: "game", stopCode: 2 } as typeof edited.run;
    delete (edited.run as { stop?: string }).stop;
    await type(jsonArea(), JSON.stringify(edited, null, 2));
    await mode("editor");
    expect(field("Display name").value).toBe("Paper (edited)");
    await section("shutdown");
    expect(field("Signal number").value).toBe("2");
    await mode("json");
    expect(jsonText()).toEqual(edited);
  });

  test("a version-1 template opens in JSON mode with the offer; Convert opens the converted template in the editor", async () => {
    await mount({ templateId: "spigot", template: V1_SPIGOT, action: "/template/spigot" });
    expect($("[data-convert-offer=v1]")!.textContent).toContain("This template is in PufferPanel's 1.x format.");
    expect(pressed("json")).toBe(true);
    expect(jsonText()).toEqual(V1_SPIGOT);

    await click($("[data-convert]"));
    expect($("[data-convert-offer]")).toBeNull();
    expect(pressed("editor")).toBe(true);
    expect(field("Display name").value).toBe("Spigot - Minecraft");
    expect(field("Type").value).toBe("java");
    await section("run");
    expect([field("Command").value, ...argumentInputs().map((i) => i.value)]).toEqual(["java", "-Xmx${memory}M", "-jar", "server.jar"]);
    await section("environments");
    expect(environments()).toEqual(["docker"]);
    expect(defaultBadge()).toEqual(["docker"]);
    await section("variables");
    expect($$("[data-variable]").map((li) => li.dataset.variable)).toEqual(["memory"]);
    expect($("[data-conversion-notes]")).not.toBeNull();
    await mode("json");
    // the converted template, its docker entry written out in full by the editor
    const converted = convertV1Template(V1_SPIGOT, "spigot");
    const docker = { type: "docker", image: "openjdk:8", networkMode: "host", networkName: "", bindings: {}, portBindings: [] };
    expect(converted.environment).toEqual({ type: "docker", image: "openjdk:8" });
    expect(jsonText()).toEqual({ ...converted, environment: docker, supportedEnvironments: [docker] });

    // nothing was saved by converting; Save sends the converted template
    expect(requests).toHaveLength(0);
    await save();
    // Saved as what it was converted from: a PufferPanel template.
    expect(requests[0]).toEqual({ method: "PUT", path: "/api/templates/spigot", body: { ...converted, environment: docker, supportedEnvironments: [docker], source: "pufferpanel" } });
  });

  test("Keep the JSON leaves the version-1 text as it is", async () => {
    await mount({ templateId: "spigot", template: V1_SPIGOT, action: "/template/spigot" });
    await click(byText("[data-convert-offer] button", "Keep the JSON"));
    expect($("[data-convert-offer]")).toBeNull();
    expect(pressed("json")).toBe(true);
    expect(jsonText()).toEqual(V1_SPIGOT);
  });

  test("a version-1 template pasted in JSON mode is offered for conversion on the way to the editor", async () => {
    await mount();
    await mode("json");
    await type(jsonArea(), JSON.stringify(V1_SPIGOT.pufferd));
    await mode("editor");
    expect($("[data-convert-offer]")).not.toBeNull();
    expect(pressed("json")).toBe(true);
    await click($("[data-convert]"));
    expect(pressed("editor")).toBe(true);
    expect(field("Display name").value).toBe("Spigot - Minecraft");
  });
});

describe("PufferPanel v3's features", () => {
  /** A v3 template as Kiln stores it after import: conditions, start commands, a console and groups. */
  function v3Fixture() {
    return {
      ...templateSchema.parse({
        name: "craft",
        display: "Craft",
        type: "minecraft-java",
        install: [
          { if: "env == 'host'", type: "javadl", version: "${javaversion}" },
          { type: "writefile", target: "eula.txt", text: "eula=true" },
        ],
        run: {
          command: [{ command: "java${javaversion} -jar server.jar", if: "env == 'host'", stdin: { type: "stdin" } }, { command: "java -jar server.jar" }],
          stop: "stop",
          stdin: { type: "telnet", port: "8081" },
        },
        data: {
          javaversion: { display: "Java", type: "string", value: "21", required: true, userEdit: true },
          loader: { display: "Loader", type: "string", value: "", required: false, userEdit: true, internal: false },
        },
        groups: [{ display: "General", description: "Always", variables: ["javaversion"], order: 1 }],
        environment: { type: "host" },
        supportedEnvironments: [{ type: "host" }],
      }),
      icon: "craft",
    };
  }
  const mountV3 = () => mount({ templateId: "craft", template: v3Fixture(), action: "/template/craft" });

  test("a stored v3 template opens in the editor, not as a conversion offer, and comes back unchanged", async () => {
    await mountV3();
    expect($("[data-convert-offer]")).toBeNull();
    expect(pressed("editor")).toBe(true);
    await mode("json");
    expect(jsonText()).toEqual(v3Fixture());
  });

  test("a step's condition is shown, edited, kept when the type changes, and left out when cleared", async () => {
    await mountV3();
    await section("install");
    expect($$("[data-step-type] [data-condition]").map((e) => e.textContent)).toEqual(["if env == 'host'"]);
    await click($$("[data-step-type]")[1]!.querySelector("[data-edit]"));
    await type(field("Condition (if)", $(".defedit-sub")!), "!file_exists('eula.txt')");
    await type(field("Step type", $(".defedit-sub")!), "mkdir");
    expect(field("Condition (if)", $(".defedit-sub")!).value).toBe("!file_exists('eula.txt')");
    await click($(".defedit-sub [data-apply]"));
    await click($$("[data-step-type]")[0]!.querySelector("[data-edit]"));
    await type(field("Condition (if)", $(".defedit-sub")!), "");
    await click($(".defedit-sub [data-apply]"));
    await mode("json");
    expect(jsonText().install).toEqual([
      { type: "javadl", version: "${javaversion}" },
      { type: "mkdir", target: "", if: "!file_exists('eula.txt')" },
    ]);
  });

  test("start commands are edited as entries with conditions; an entry's own console is kept", async () => {
    await mountV3();
    await section("run");
    expect($$("[data-command-entry]")).toHaveLength(2);
    const entry = (i: number) => $(`[data-command-entry="${i}"]`)!;
    await type(field("Condition (if)", entry(1)), "env == 'docker'");
    await click(byText(".defedit-add", "Add command"));
    await type(field("Command line", entry(2)), "./fallback.sh");
    await mode("json");
    expect(jsonText().run.command).toEqual([
      { command: "java${javaversion} -jar server.jar", if: "env == 'host'", stdin: { type: "stdin" } },
      { command: "java -jar server.jar", if: "env == 'docker'" },
      { command: "./fallback.sh" },
    ]);
  });

  test("one command line becomes a list of entries on request", async () => {
    await mount();
    await section("run");
    await click($("[data-use-command-entries]"));
    await type(field("Condition (if)", $('[data-command-entry="0"]')!), "os == 'linux'");
    await mode("json");
    expect(jsonText().run.command).toEqual([{ command: "java -Xmx${memory}M -jar server.jar nogui", if: "os == 'linux'" }]);
  });

  test("the console type and its address are edited", async () => {
    await mountV3();
    await section("run");
    const consoleSet = $("[data-console]")!;
    expect(field<HTMLSelectElement>("Console type", consoleSet).value).toBe("telnet");
    await type(field("Port", consoleSet), "8082");
    await type(field<HTMLSelectElement>("Console type", consoleSet), "rcon");
    await type(field("Password", consoleSet), "secret");
    await mode("json");
    expect(jsonText().run.stdin).toEqual({ type: "rcon", port: "8082", password: "secret" });
  });

  test("a template that names no console is left without one", async () => {
    await mount();
    await section("run");
    expect(field<HTMLSelectElement>("Console type", $("[data-console]")!).value).toBe("stdin");
    expect(field("Port", $("[data-console]")!)).toBeNull();
    await mode("json");
    expect(jsonText().run).not.toHaveProperty("stdin");
  });

  test("variable groups: listed with their variables and condition, edited in a dialog", async () => {
    await mountV3();
    await section("groups");
    expect($("[data-group] strong")!.textContent).toBe("General");
    await click(byText(".defedit-add", "Add group"));
    const dialog = $(".defedit-sub")!;
    await type(field("Name", dialog), "Modding");
    await type(field("Condition (if)", dialog), "loader != ''");
    const loader = [...dialog.querySelectorAll(".check-row")].find((row) => row.textContent === "loader")!.querySelector("input")!;
    await click(loader as unknown as HTMLElement);
    await click($(".defedit-sub [data-apply]"));
    expect($$("[data-group] [data-condition]").map((e) => e.textContent)).toEqual(["if loader != ''"]);
    await mode("json");
    expect(jsonText().groups).toEqual([
      { display: "General", description: "Always", variables: ["javaversion"], order: 1 },
      { display: "Modding", description: "", variables: ["loader"], order: 2, if: "loader != ''" },
    ]);
  });

  test("a PufferPanel 2.x template is offered for conversion, and the notes say what changed", async () => {
    const v2 = { display: "Chat bot", data: { bot: { value: "bot.js", desc: "See <a href='https://example.test'>docs</a>", internal: false } }, run: { command: "node ${bot}" }, environment: { type: "standard" } };
    await mount({ templateId: "bot", template: v2, action: "/template/bot" });
    expect($("[data-convert-offer=v2]")!.textContent).toContain("PufferPanel's 2.x format");
    await click($("[data-convert]"));
    const notes = $$("[data-note]").map((n) => n.textContent);
    expect(notes).toContain("data.bot.required: not set; PufferPanel reads it as false, now written out");
    expect(notes).toContain("data.bot.desc: HTML turned into text with links");
    await mode("json");
    expect(jsonText().data.bot).toMatchObject({ required: false, userEdit: false, desc: "See [docs](https://example.test)" });
  });
});

describe("add template", () => {
  const add = () => mount({ templateId: undefined, template: templateFixture(), action: "/addtemplate" });

  test("Save needs a name of letters, digits, dots, dashes or underscores; nothing is sent without one", async () => {
    await add();
    for (const name of ["", "my template", "  "]) {
      await type(field("Name"), name);
      await save();
    }
    expect(toasts().filter((t) => t.startsWith("Give the template a name"))).toHaveLength(3);
    expect(toasts()[0]).toBe("Give the template a name of letters, digits, dots, dashes or underscores");
    expect(requests).toHaveLength(0);
  });

  test("a name that exists already is refused and nothing is PUT", async () => {
    await add();
    await type(field("Name"), "taken");
    await save();
    expect(requests).toEqual([{ method: "GET", path: "/api/templates/taken" }]);
    expect(toasts().some((t) => t.includes("exists already"))).toBe(true);
    expect(toasts()).toContain("A template named taken exists already: edit it on its own page");
    expect(assigned).toEqual([]);
    expect($<HTMLButtonElement>("[data-save-template]")!.disabled).toBe(false);
  });

  test("a new name is saved with PUT and the template's page opens", async () => {
    await add();
    await type(field("Name"), "fresh-paper");
    await type(field("Display name"), "Fresh");
    await save();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/templates/fresh-paper", "PUT /api/templates/fresh-paper"]);
    // A template made in the editor is Kiln's own.
    expect(requests[1]!.body).toEqual({ ...templateFixture(), display: "Fresh", source: "kiln" });
    expect(toasts()).toContain("Template saved");
    expect(assigned).toEqual(["/template/fresh-paper"]);
  });
});
