// The file manager island: its server render (listing, '..', actions by permission, hotkeys,
// every control a link or a form's submit button so it works without script), then hydrated in
// happy-dom against a real Bun.serve playing the daemon's file API through the proxy: browsing
// with the address following, create with the empty-name rule, delete behind its confirmation,
// archive names, extract, the edit refusals that fetch nothing, a failed listing said in place
// with a retry, and the selection (bulk delete, zip download), rename, move, copy and
// permissions, and the editor that never opens binary files and saves only after a change.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Window } from "happy-dom";
import { renderToString } from "react-dom/server";
import { makeTranslate } from "../core/i18n/translate";
import type { FileEntry, FolderListing } from "../core/files";
import { EditorView } from "@codemirror/view";
import island, { type FileManagerProps } from "./FileManager";
import { fakePanelApiForFile, installDom, referenceMessages, until, withI18n, type InstalledDom } from "./test-support";

// ── a fake daemon file API behind the proxy path ─────────────────────────────────────────────
interface Node {
  isFile: boolean;
  content?: string | Uint8Array;
  size?: number;
  mode?: number;
}
const MTIME = 1_700_000_000; // 2023-11-14 22:13:20 UTC
let store: Map<string, Node>;
const requests: { method: string; path: string; query: string; body?: unknown }[] = [];

function listing(folder: string): FolderListing {
  const prefix = folder === "" ? "" : `${folder}/`;
  const files: FileEntry[] = [];
  for (const [path, node] of store) {
    if (!path.startsWith(prefix) || path === folder) continue;
    const rest = path.slice(prefix.length);
    if (rest.includes("/")) continue;
    files.push({ name: rest, isFile: node.isFile, size: node.size ?? node.content?.length ?? 0, modifyTime: MTIME, mode: node.mode ?? 0o644 });
  }
  return { files, path: folder };
}

const api = fakePanelApiForFile(async (request, url) => {
  const m = /^\/proxy\/daemon\/server\/fm1\/(file|archive|extract-preview|extract|move|copy|mode)\/?(.*)$/.exec(url.pathname);
  if (!m) return new Response("not found", { status: 404 });
  const [, kind, raw] = m;
  const path = raw!.split("/").filter(Boolean).map(decodeURIComponent).join("/");
  const record: (typeof requests)[number] = { method: request.method, path: `${kind}:${path}`, query: url.search };
  requests.push(record);
  if (kind === "file" && request.method === "GET") {
    if (path === "broken") return Response.json({ error: { code: "ErrNoPermission", msg: "no", metadata: {} } }, { status: 403 });
    const node = store.get(path);
    if (path !== "" && !node) return Response.json({ error: { code: "ErrNotFound", msg: "nope", metadata: { path } } }, { status: 404 });
    if (node?.isFile) return new Response(typeof node.content === "string" || node.content === undefined ? (node.content ?? "") : new Blob([node.content as Uint8Array<ArrayBuffer>]), { headers: { "content-disposition": `attachment; filename="${path}"` } });
    return Response.json(listing(path));
  }
  if (kind === "file" && request.method === "PUT") {
    if (url.searchParams.get("folder") === "true") store.set(path, { isFile: false });
    else {
      const form = await request.formData();
      const content = await (form.get("file") as Blob).text();
      record.body = content;
      store.set(path, { isFile: true, content });
    }
    return Response.json({ path });
  }
  if (kind === "file" && request.method === "DELETE") {
    for (const key of [...store.keys()]) if (key === path || key.startsWith(`${path}/`)) store.delete(key);
    return new Response(null, { status: 204 });
  }
  if (kind === "move" || kind === "copy") {
    const { from, to } = (record.body = await request.json()) as { from: string; to: string };
    for (const [key, node] of [...store]) {
      if (key !== from && !key.startsWith(`${from}/`)) continue;
      store.set(to + key.slice(from.length), node);
      if (kind === "move") store.delete(key);
    }
    return Response.json({ path: to });
  }
  if (kind === "mode") {
    const { path: target, mode } = (record.body = await request.json()) as { path: string; mode: string };
    store.get(target)!.mode = parseInt(mode, 8);
    return new Response(null, { status: 204 });
  }
  if (kind === "extract-preview") {
    return Response.json({ destination: url.searchParams.get("destination") ?? "", destinationExists: true, entries: 3, overwrites: ["notes.txt"], overwriteCount: 1, conflicts: [] });
  }
  if (kind === "archive") {
    record.body = await request.json();
    store.set(path, { isFile: true, content: "PK" });
    return Response.json({ path });
  }
  return new Response(null, { status: 204 });
});

let dom: InstalledDom;
let window: Window;

beforeEach(() => {
  store = new Map<string, Node>([
    ["plugins", { isFile: false }],
    ["plugins/config.yml", { isFile: true, content: "a: 1\n" }],
    ["world", { isFile: false }],
    ["world.zip", { isFile: true, content: "PK" }],
    ["notes.txt", { isFile: true, content: "hello\n" }],
    ["big.log", { isFile: true, size: 20971521 }],
    ["logo.png", { isFile: true, content: "png" }],
    ["backup.tar.gz", { isFile: true, content: "gz" }],
  ]);
  requests.length = 0;
  const url = api.url("/server/fm1?tab=files");
  dom = installDom(url, {
    expose: ["navigator", "HTMLInputElement", "Event", "KeyboardEvent", "MouseEvent", "history", "confirm"],
    location: null,
    pageFetch: true,
  });
  window = dom.window;
  Object.defineProperty(globalThis, "location", { value: window.location, configurable: true, writable: true });
  window.document.body.innerHTML = `<div id="toasts"></div><div id="root"></div>`;
  Object.defineProperty(globalThis, "XMLHttpRequest", { value: FetchXhr, configurable: true, writable: true });
});
afterEach(async () => {
  delete (globalThis as Record<string, unknown>).XMLHttpRequest;
  await dom.restore();
});

/**
 * Uploads go through XMLHttpRequest for their progress; happy-dom's cannot send Bun's FormData,
 * so this one sends with fetch and reports the whole body as one progress step. (The real one
 * runs in test/browser-files.test.ts.)
 */
class FetchXhr {
  status = 0;
  responseText = "";
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private method = "GET";
  private url = "";
  open(method: string, url: string) {
    this.method = method;
    this.url = new URL(url, window.location.href).href;
  }
  setRequestHeader() {}
  abort() {
    this.onabort?.();
  }
  send(body: FormData) {
    void fetch(this.url, { method: this.method, body }).then(async (response) => {
      const file = body.get("file") as File;
      this.upload.onprogress?.({ loaded: file.size, total: file.size, lengthComputable: true });
      this.status = response.status;
      this.responseText = await response.text();
      this.onload?.();
    }, () => this.onerror?.());
  }
}

// ── helpers ──────────────────────────────────────────────────────────────────────────────────
const t = makeTranslate(referenceMessages(island.messages));
const element = (props: FileManagerProps) => withI18n(<island.component {...props} />, t);
const $ = <T extends Element = HTMLElement>(selector: string) => window.document.querySelector(selector) as unknown as T | null;
const $$ = (selector: string) => [...window.document.querySelectorAll(selector)] as unknown as HTMLElement[];
const names = () => $$(".files-row").map((r) => r.getAttribute("data-name"));
const toasts = () => $$(".toast").map((el) => el.textContent ?? "");
const row = (name: string) => $(`.files-row[data-name="${name}"]`)!;

async function mount(props: Partial<FileManagerProps> = {}) {
  const full: FileManagerProps = { serverId: "fm1", canEdit: true, path: "", listing: listing(""), ...props };
  const root = $("#root")!;
  root.innerHTML = renderToString(element(full));
  await dom.hydrate(root, element(full));
  // Hydrated once the times switch from the server's UTC to local time.
  await until(() => !($("time")?.textContent ?? "").endsWith("UTC"), 3000, "hydration");
}

/** Types into a React-controlled input the way a browser does (see islands/definition/editor.test.tsx). */
function type(el: Element | null, value: string) {
  if (!el) throw new Error("no field");
  const fire = (name: string) => el.dispatchEvent(new window.Event(name, { bubbles: true }) as unknown as Event);
  Object.assign(el, { attachEvent: () => {}, detachEvent: () => {} });
  fire("focusin");
  Object.getOwnPropertyDescriptor(window.HTMLInputElement.prototype, "value")!.set!.call(el, value);
  fire("input");
  fire("keyup");
}

/** Types at the start of the open editor: CodeMirror's view when it loaded, else the plain textarea. */
function editorInsert(text: string) {
  const cm = $(".files-editor-host .cm-editor");
  if (cm) {
    const view = EditorView.findFromDOM(cm as unknown as globalThis.HTMLElement)!;
    view.dispatch({ changes: { from: 0, insert: view.state.toText(text) } });
    return;
  }
  const area = $<HTMLTextAreaElement>(".files-editor-host textarea")!;
  Object.getOwnPropertyDescriptor(window.HTMLTextAreaElement.prototype, "value")!.set!.call(area, text.replace(/\r\n/g, "\n") + area.value);
  area.dispatchEvent(new window.Event("input", { bubbles: true }) as unknown as Event);
}

const click = (el: Element | null) => {
  if (!el) throw new Error("nothing to click");
  (el as HTMLElement).click();
};

// ── tests ────────────────────────────────────────────────────────────────────────────────────
describe("FileManager, server render", () => {
  test("folders first, '..' below the root, sizes and UTC times, links that work without script", () => {
    const html = renderToString(element({ serverId: "fm1", canEdit: true, path: "plugins", listing: { files: [{ name: "b.txt", isFile: true, size: 1500, modifyTime: MTIME }, { name: "a dir", isFile: false, size: 0, modifyTime: MTIME }], path: "plugins" } }));
    expect(html.indexOf('data-name=".."')).toBeLessThan(html.indexOf('data-name="a dir"'));
    expect(html.indexOf('data-name="a dir"')).toBeLessThan(html.indexOf('data-name="b.txt"'));
    expect(html).toContain('href="/server/fm1?tab=files&amp;path=plugins%2Fa%20dir"');
    expect(html).toContain('href="/proxy/daemon/server/fm1/file/plugins/b.txt"');
    expect(html).toContain("1.5 KB");
    expect(html).toContain("Nov 14, 2023, 10:13 PM UTC");
    for (const hotkey of ["r", "n f", "n d", "u"]) expect(html).toContain(`data-hotkey="${hotkey}"`);
    // The '..' row has no actions at all.
    const parentRow = html.slice(html.indexOf('data-name=".."'), html.indexOf("</tr>", html.indexOf('data-name=".."')));
    expect(parentRow).not.toContain("data-action");
  });

  test("without putServerFiles: view and download only, no create, upload, archive or delete", () => {
    const html = renderToString(element({ serverId: "fm1", canEdit: false, path: "", listing: listing("") }));
    expect(html).toContain('data-action="download"');
    expect(html).toContain('data-action="selection-download"');
    expect(html).toContain('data-hotkey="r"');
    for (const action of ["edit", "delete", "archive", "extract", "new-file", "new-folder", "upload", "archive-folder", "rename", "move", "copy", "mode", "selection-delete", "selection-move"]) expect(html).not.toContain(`data-action="${action}"`);
  });

  test("without script every control does something: links, and submit buttons of plain forms", () => {
    const html = renderToString(element({ serverId: "fm1", canEdit: true, path: "plugins", listing: { files: [{ name: "a.zip", isFile: true, size: 2, modifyTime: MTIME, mode: 0o640 }, { name: "d", isFile: false, size: 0, modifyTime: MTIME, mode: 0o755 }], path: "plugins" } }));
    // Buttons that only script could make work are not rendered before hydration (Cancel closes its <details> through the shell).
    const plainButtons = html.match(/<button type="button"[^>]*>/g) ?? [];
    expect(plainButtons.every((b) => b.includes("data-close-details"))).toBe(true);
    expect(html).not.toContain('data-action="view"');
    // The listing is one form posting to the panel's form route; each row action names itself and its entry.
    expect(html).toContain('<form id="files-form-fm1" action="/server/fm1/files/act" method="post">');
    expect(html).toContain('<input type="hidden" name="folder" value="plugins"/>');
    for (const [action, name] of [["extract", "a.zip"], ["delete", "a.zip"], ["archive", "d"], ["rename", "d"], ["move", "a.zip"], ["copy", "a.zip"], ["mode", "d"]] as const) expect(html).toMatch(new RegExp(`<button type="submit" value="${action}:${name.replace(".", "\\.")}"[^>]*name="row"`));
    expect(html).toContain('<input type="checkbox" aria-label="Select: a.zip" name="pick" value="a.zip"/>');
    for (const action of ["download", "move", "copy", "archive", "delete"]) expect(html).toMatch(new RegExp(`<button type="submit" value="${action}"[^>]*name="do"`));
    expect(html).toMatch(/<button type="submit" form="files-form-fm1" value="archiveFolder"[^>]*name="do"/);
    // New file, new folder and upload are forms in <details> overlays.
    expect(html).toContain('action="/server/fm1/files/new"');
    expect(html).toContain('<input type="hidden" name="kind" value="folder"/>');
    expect(html).toContain('action="/server/fm1/files/upload?folder=plugins" encType="multipart/form-data" method="post"');
    // Refresh is a link to the same folder; the search a GET form of the page.
    expect(html).toMatch(/<a class="icon-btn" href="\/server\/fm1\?tab=files&amp;path=plugins" data-hotkey="r"/);
    expect(html).toContain('<form class="files-search" role="search" action="/server/fm1" method="get">');
    // Modes as digits, with the letters in the title.
    expect(html).toContain('<code title="rw-r-----">640</code>');
  });

  test("a folder with more entries than a listing carries says so, with how many are shown; a whole one does not", () => {
    const files = [{ name: "a.txt", isFile: true, size: 1, modifyTime: MTIME }];
    const cut = renderToString(element({ serverId: "fm1", canEdit: true, path: "many", listing: { files, path: "many", truncated: true } }));
    expect(cut).toContain("files-truncated");
    expect(cut).toContain("1 of them are listed");
    expect(renderToString(element({ serverId: "fm1", canEdit: true, path: "many", listing: { files, path: "many" } }))).not.toContain("files-truncated");
  });

  test("a listing the server could not get says why, with a retry link, and is not an empty folder", () => {
    const html = renderToString(element({ serverId: "fm1", canEdit: true, path: "x", listing: null, error: "The node is not available" }));
    expect(html).toContain('data-testid="files-load-error"');
    expect(html).toContain("The node is not available");
    expect(html).toContain('href="/server/fm1?tab=files&amp;path=x" data-action="retry"');
    expect(html).not.toContain("This folder is empty");
  });
});

describe("FileManager, hydrated", () => {
  test("opening folders lists them and the address follows; the breadcrumb and '..' lead back", async () => {
    await mount();
    expect(names()).toEqual(["plugins", "world", "backup.tar.gz", "big.log", "logo.png", "notes.txt", "world.zip"]);
    click(row("plugins").querySelector("a.files-name"));
    await until(() => names().includes("config.yml"), 3000, "plugins listed");
    expect(names()).toEqual(["..", "config.yml"]);
    expect(window.location.search).toBe("?tab=files&path=plugins");
    expect($$(".files-breadcrumb a").map((a) => a.textContent)).toEqual(["Server", "plugins"]);
    click(row("..").querySelector("a"));
    await until(() => names().includes("world"), 3000, "root listed again");
    expect(window.location.search).toBe("?tab=files");
    // Refresh (the button the r hotkey clicks) lists again.
    const before = requests.length;
    click($('[data-hotkey="r"]'));
    await until(() => requests.length > before, 3000, "refresh");
    expect(requests.at(-1)).toMatchObject({ method: "GET", path: "file:" });
  });

  test("a new folder needs a name: Create is disabled and Enter does nothing until there is one", async () => {
    await mount();
    click($('[data-hotkey="n d"]'));
    await until(() => $('[data-testid="files-name-dialog"]') !== null, 3000, "name dialog");
    const create = $<HTMLButtonElement>('[data-testid="files-name-dialog"] button[type="submit"]')!;
    expect(create.disabled).toBe(true);
    const before = requests.length;
    ($('[data-testid="files-name-dialog"] form') as unknown as HTMLFormElement).requestSubmit();
    await Bun.sleep(50);
    expect(requests.length).toBe(before);
    type($('[data-testid="files-name-dialog"] input[name="name"]'), "a/b");
    await until(() => ($('[data-testid="files-name-dialog"] .files-field-error')?.textContent ?? "") !== "", 2000, "invalid hint");
    expect(create.disabled).toBe(true);
    type($('[data-testid="files-name-dialog"] input[name="name"]'), "world");
    await until(() => ($('[data-testid="files-name-dialog"] .files-field-error')?.textContent ?? "").includes("already exists"), 2000, "taken hint");
    type($('[data-testid="files-name-dialog"] input[name="name"]'), " logs ");
    await until(() => !create.disabled, 2000, "create enabled");
    ($('[data-testid="files-name-dialog"] form') as unknown as HTMLFormElement).requestSubmit();
    await until(() => names().includes("logs"), 3000, "new folder listed");
    expect(requests.find((r) => r.method === "PUT")).toMatchObject({ path: "file:logs", query: "?folder=true" });
    expect(toasts()).toContain("Created logs");
    expect($('[data-testid="files-name-dialog"]')).toBeNull();
  });

  test("a new file is created empty and opens in the editor; Save writes it back", async () => {
    await mount();
    click($('[data-hotkey="n f"]'));
    await until(() => $('[data-testid="files-name-dialog"] input') !== null, 3000, "name dialog");
    type($('[data-testid="files-name-dialog"] input[name="name"]'), "todo.md");
    await until(() => !$<HTMLButtonElement>('[data-testid="files-name-dialog"] button[type="submit"]')!.disabled, 2000, "create enabled");
    ($('[data-testid="files-name-dialog"] form') as unknown as HTMLFormElement).requestSubmit();
    await until(() => $('[data-testid="files-editor"]') !== null, 3000, "editor overlay");
    expect(requests.find((r) => r.method === "PUT")).toMatchObject({ path: "file:todo.md", body: "" });
    await until(() => $(".files-editor-host[data-ready]") !== null, 10_000, "editor ready");
    // Save only after a change.
    expect($<HTMLButtonElement>("[data-save-file]")!.disabled).toBe(true);
    editorInsert("# todo\n");
    await until(() => !$<HTMLButtonElement>("[data-save-file]")!.disabled, 2000, "save enabled");
    click($("[data-save-file]"));
    await until(() => toasts().includes("Saved todo.md"), 3000, "saved toast");
    expect(requests.at(-2)).toMatchObject({ method: "PUT", path: "file:todo.md", body: "# todo\n" });
    expect(requests.filter((r) => r.method === "PUT" && r.path === "file:todo.md")).toHaveLength(2);
  });

  test("delete asks first: Cancel sends nothing, Delete removes the entry", async () => {
    await mount();
    click(row("notes.txt").querySelector('[data-action="delete"]'));
    await until(() => $('[data-testid="files-delete-dialog"]') !== null, 3000, "confirmation");
    expect($('[data-testid="files-delete-dialog"] p')!.textContent).toBe("Do you really want to delete the file notes.txt? (this cannot be undone)");
    click([...$$('[data-testid="files-delete-dialog"] button')].find((b) => b.textContent === "Cancel")!);
    await until(() => $('[data-testid="files-delete-dialog"]') === null, 2000, "closed");
    expect(requests.some((r) => r.method === "DELETE")).toBe(false);
    click(row("world").querySelector('[data-action="delete"]'));
    await until(() => $("[data-confirm-delete]") !== null, 3000, "confirmation");
    expect($('[data-testid="files-delete-dialog"] p')!.textContent).toContain("the folder world and everything in it");
    click($("[data-confirm-delete]"));
    await until(() => !names().includes("world"), 3000, "deleted");
    expect(requests.find((r) => r.method === "DELETE")).toMatchObject({ path: "file:world" });
    expect(toasts()).toContain("Deleted world");
  });

  test("archives are named by the folder, with (2) when taken; the root folder is 'server'", async () => {
    await mount();
    click(row("world").querySelector('[data-action="archive"]'));
    await until(() => requests.some((r) => r.method === "POST"), 3000, "archive request");
    expect(requests.find((r) => r.method === "POST")).toMatchObject({ path: "archive:world (2).zip", body: ["world"] });
    await until(() => names().includes("world (2).zip"), 3000, "archive listed");
    expect(toasts()).toContain("Created world (2).zip");
    click($('[data-action="archive-folder"]'));
    await until(() => requests.filter((r) => r.method === "POST").length === 2, 3000, "second archive");
    const whole = requests.filter((r) => r.method === "POST")[1]!;
    expect(whole.path).toBe("archive:server.zip");
    expect((whole.body as string[]).sort()).toEqual(["backup.tar.gz", "big.log", "logo.png", "notes.txt", "plugins", "world", "world (2).zip", "world.zip"]);
  });

  test("extract asks where, lists what it would replace, then sends the archive and the folder", async () => {
    await mount();
    expect(row("logo.png").querySelector('[data-action="extract"]')).toBeNull();
    click(row("backup.tar.gz").querySelector('[data-action="extract"]'));
    await until(() => $('[data-testid="files-extract-overwrites"]') !== null, 3000, "the preview");
    expect($('[data-testid="files-extract-overwrites"]')!.textContent).toContain("/notes.txt");
    expect(requests.some((r) => r.path.startsWith("extract:"))).toBe(false);
    click($("[data-confirm-extract]"));
    await until(() => toasts().includes("Extracted backup.tar.gz"), 3000, "extracted toast");
    expect(requests.find((r) => r.path.startsWith("extract:"))).toMatchObject({ method: "GET", path: "extract:backup.tar.gz", query: "?destination=" });
  });

  test("too large files are refused and an archive's name offers a menu, without a fetch; images open in the viewer", async () => {
    await mount();
    const before = requests.length;
    click(row("big.log").querySelector('[data-action="edit"]'));
    await until(() => toasts().length === 1, 2000, "the refusal");
    expect(toasts()[0]).toBe("big.log is larger than 20 MiB and cannot be edited here; download it instead");
    click(row("world.zip").querySelector("a.files-name"));
    await until(() => $('[data-testid="files-archive-menu"]') !== null, 2000, "the archive's menu");
    expect($('[data-archive-action="extract"]')).not.toBeNull();
    expect($('[data-archive-action="download"]')!.getAttribute("href")).toBe("/proxy/daemon/server/fm1/file/world.zip");
    expect(toasts()).toHaveLength(1);
    expect(requests.length).toBe(before);
    click($('[data-testid="files-archive-menu"] button[aria-label="Close"]'));
    click(row("logo.png").querySelector("a.files-name"));
    await until(() => $('[data-testid="files-image"] img') !== null, 3000, "image viewer");
    expect($('[data-testid="files-image"] img')!.getAttribute("src")).toBe("/proxy/daemon/server/fm1/file/logo.png");
  });

  test("a drop shows the overlay; folders are refused, a name twice goes once, the rest uploads", async () => {
    await mount();
    const list = $(".files-list")!;
    const file = (name: string, text: string) => new File([text], name, { type: "text/plain" });
    const item = (f: File, isDirectory = false) => ({ kind: "file", getAsFile: () => f, webkitGetAsEntry: () => ({ isDirectory }) });
    const drag = (type: string, dataTransfer: object) => {
      const event = new window.Event(type, { bubbles: true, cancelable: true });
      Object.defineProperty(event, "dataTransfer", { value: dataTransfer });
      list.dispatchEvent(event as unknown as Event);
      return event;
    };
    const carrying = { types: ["Files"], items: [], files: [], dropEffect: "none" };
    expect(drag("dragenter", carrying).defaultPrevented).toBe(true);
    await until(() => $(".files-drop") !== null, 2000, "drop overlay");
    expect($(".files-drop")!.textContent).toBe("Drop files to upload them to Server");
    // Text dragged from the page is not a drop of files.
    expect(drag("dragover", { types: ["text/plain"] }).defaultPrevented).toBe(false);
    drag("drop", { types: ["Files"], items: [item(file("plugins", ""), true), item(file("a.txt", "first")), item(file("a.txt", "second")), item(file("b.txt", "bee"))], files: [] });
    await until(() => $(".files-drop") === null, 2000, "overlay gone");
    await until(() => toasts().includes("Upload finished"), 5000, "uploads done");
    expect(toasts()).toContain("Cannot upload folders");
    const puts = requests.filter((r) => r.method === "PUT");
    expect(puts.map((r) => [r.path, r.body])).toEqual([["file:a.txt", "first"], ["file:b.txt", "bee"]]);
    await until(() => names().includes("b.txt"), 3000, "listed");
  });

  test("a listing that fails clears loading and says why in place, with a retry, not 'empty'", async () => {
    store.set("broken", { isFile: false });
    await mount({ path: "", listing: { files: [{ name: "broken", isFile: false, size: 0, modifyTime: MTIME }], path: "" } });
    click(row("broken").querySelector("a.files-name"));
    await until(() => $('[data-testid="files-load-error"]') !== null, 3000, "error in place");
    await until(() => $('[data-testid="file-manager"]')!.getAttribute("aria-busy") === "false", 2000, "loading cleared");
    expect($(".files-empty")).toBeNull();
    expect($(".files-table")).toBeNull();
    // Retry lists the folder shown again; once it answers the error goes.
    const before = requests.length;
    click($('[data-action="retry"]'));
    await until(() => requests.length > before && $('[data-testid="files-load-error"]') === null, 3000, "retried");
    expect(names()).toContain("broken");
  });

  test("selection: the bar shows with a selection, downloads a zip of it, and deletes it behind one confirmation", async () => {
    await mount();
    expect($('[data-testid="files-selection-bar"]')).toBeNull();
    click(row("notes.txt").querySelector('input[name="pick"]'));
    click(row("plugins").querySelector('input[name="pick"]'));
    await until(() => $('[data-testid="files-selection-bar"]') !== null, 2000, "selection bar");
    expect($(".files-selection-count")!.textContent).toBe("Selected: 2");
    // Download: a zip of both, made while it downloads.
    const clicked: string[] = [];
    const anchorClick = window.HTMLAnchorElement.prototype.click;
    window.HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute("href")!);
    };
    click($('[data-action="selection-download"]'));
    window.HTMLAnchorElement.prototype.click = anchorClick;
    expect(clicked).toEqual(["/proxy/daemon/server/fm1/zip?path=notes.txt&path=plugins"]);
    click($('[data-action="selection-delete"]'));
    await until(() => $("[data-confirm-delete]") !== null, 3000, "confirmation");
    expect($('[data-testid="files-delete-dialog"] p')!.textContent).toContain("These 2 entries will be deleted");
    expect($$(".files-name-list li").map((li) => li.textContent)).toEqual(["notes.txt", "plugins"]);
    click($("[data-confirm-delete]"));
    await until(() => !names().includes("notes.txt") && !names().includes("plugins"), 3000, "both deleted");
    expect(requests.filter((r) => r.method === "DELETE").map((r) => r.path)).toEqual(["file:notes.txt", "file:plugins"]);
    expect(toasts()).toContain("Deleted 2 entries");
    expect($('[data-testid="files-selection-bar"]')).toBeNull();
    // Select all ticks every entry.
    click($('[data-action="select-all"]'));
    await until(() => $(".files-selection-count")?.textContent === `Selected: ${names().length}`, 2000, "all selected");
  });

  test("rename, move and copy go to the node's move and copy calls; permissions through the mode call", async () => {
    await mount();
    click(row("notes.txt").querySelector('[data-action="rename"]'));
    await until(() => $('[data-testid="files-name-dialog"] input') !== null, 3000, "rename dialog");
    const input = $<HTMLInputElement>('[data-testid="files-name-dialog"] input[name="name"]')!;
    expect(input.value).toBe("notes.txt");
    const rename = $<HTMLButtonElement>('[data-testid="files-name-dialog"] button[type="submit"]')!;
    expect(rename.disabled).toBe(true);
    type(input, "world");
    await until(() => ($('[data-testid="files-name-dialog"] .files-field-error')?.textContent ?? "").includes("already exists"), 2000, "taken");
    type(input, "readme.txt");
    await until(() => !rename.disabled, 2000, "rename enabled");
    ($('[data-testid="files-name-dialog"] form') as unknown as HTMLFormElement).requestSubmit();
    await until(() => names().includes("readme.txt"), 3000, "renamed");
    expect(requests.find((r) => r.path === "move:")).toMatchObject({ method: "POST", body: { from: "notes.txt", to: "readme.txt" } });
    expect(toasts()).toContain("Renamed notes.txt to readme.txt");

    click(row("readme.txt").querySelector('[data-action="copy"]'));
    await until(() => $('[data-testid="files-destination-dialog"]') !== null, 3000, "copy dialog");
    const destination = $<HTMLInputElement>('[data-testid="files-destination-dialog"] input')!;
    expect(destination.value).toBe("/");
    type(destination, "/plugins");
    await until(() => !$<HTMLButtonElement>('[data-testid="files-destination-dialog"] button[type="submit"]')!.disabled, 2000, "copy enabled");
    ($('[data-testid="files-destination-dialog"] form') as unknown as HTMLFormElement).requestSubmit();
    await until(() => store.has("plugins/readme.txt") && $('[data-testid="files-destination-dialog"]') === null, 3000, "copied");
    expect(requests.find((r) => r.path === "copy:")).toMatchObject({ body: { from: "readme.txt", to: "plugins/readme.txt" } });
    expect(names()).toContain("readme.txt");

    click(row("world.zip").querySelector('input[name="pick"]'));
    await until(() => $('[data-action="selection-move"]') !== null, 2000, "selection bar");
    click($('[data-action="selection-move"]'));
    await until(() => $('[data-testid="files-destination-dialog"]') !== null, 3000, "move dialog");
    type($('[data-testid="files-destination-dialog"] input'), "world");
    await until(() => !$<HTMLButtonElement>('[data-testid="files-destination-dialog"] button[type="submit"]')!.disabled, 2000, "move enabled");
    ($('[data-testid="files-destination-dialog"] form') as unknown as HTMLFormElement).requestSubmit();
    await until(() => !names().includes("world.zip"), 3000, "moved");
    expect(requests.find((r) => r.path === "move:" && (r.body as { from: string }).from === "world.zip")).toMatchObject({ body: { to: "world/world.zip" } });
    expect(toasts()).toContain("Moved to /world (1)");

    click(row("readme.txt").querySelector('[data-action="mode"]'));
    await until(() => $('[data-testid="files-mode-dialog"]') !== null, 3000, "mode dialog");
    const octal = $<HTMLInputElement>('[data-testid="files-mode-dialog"] input[name="mode"]')!;
    expect(octal.value).toBe("644");
    // The owner's execute box changes the digits.
    click($('[data-testid="files-mode-dialog"] input[aria-label="Owner: Execute"]'));
    await until(() => octal.value === "744", 2000, "box to digits");
    ($('[data-testid="files-mode-dialog"] form') as unknown as HTMLFormElement).requestSubmit();
    await until(() => requests.some((r) => r.path === "mode:"), 3000, "mode sent");
    expect(requests.find((r) => r.path === "mode:")).toMatchObject({ body: { path: "readme.txt", mode: "744" } });
    await until(() => row("readme.txt")?.querySelector(".files-col-mode code")?.textContent === "744", 3000, "mode listed");
  });

  test("the editor never opens binary or non-UTF-8 files (download offered), and keeps CRLF line endings byte for byte", async () => {
    store.set("server.jar.bak", { isFile: true, content: new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 0xff, 0xfe]) });
    store.set("latin1.txt", { isFile: true, content: new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    store.set("windows.ini", { isFile: true, content: "[a]\r\nb=1\r\n" });
    await mount({ listing: listing("") });
    click(row("server.jar.bak").querySelector("a.files-name"));
    await until(() => $("[data-refusal]") !== null, 5000, "binary refused");
    expect($("[data-refusal]")!.getAttribute("data-refusal")).toBe("binary");
    expect($("[data-save-file]")).toBeNull();
    expect($("[data-download-file]")!.getAttribute("href")).toBe("/proxy/daemon/server/fm1/file/server.jar.bak");
    click([...$$('[data-testid="files-editor"] button')].find((b) => b.textContent === "Close")!);
    await until(() => $('[data-testid="files-editor"]') === null, 2000, "closed");

    click(row("latin1.txt").querySelector("a.files-name"));
    await until(() => $("[data-refusal]")?.getAttribute("data-refusal") === "notUtf8", 5000, "latin-1 refused");
    click([...$$('[data-testid="files-editor"] button')].find((b) => b.textContent === "Close")!);
    await until(() => $('[data-testid="files-editor"]') === null, 2000, "closed");

    click(row("windows.ini").querySelector("a.files-name"));
    await until(() => $(".files-editor-host[data-ready]") !== null, 10_000, "editor ready");
    editorInsert("; note\r\n");
    await until(() => !$<HTMLButtonElement>("[data-save-file]")!.disabled, 2000, "save enabled");
    click($("[data-save-file]"));
    await until(() => toasts().includes("Saved windows.ini"), 3000, "saved");
    expect(requests.find((r) => r.method === "PUT" && r.path === "file:windows.ini")!.body).toBe("; note\r\n[a]\r\nb=1\r\n");
  });
});
