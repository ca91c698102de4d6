// Set-up shared by the island tests, and only by them: no shipped file imports this module (the
// browser bundles start from islands/client.ts and islands/shell.ts and never reach it).
//   until         waits for a condition in the page or on the fake panel
//   installDom    a happy-dom window as the globals a browser page has, hydrating React roots
//                 in it (react-dom/client loaded only once a window exists), and putting it all back
//   formIslandPerTest a fresh window per test with one island in a form, hydrated and unmounted
//   startFakeLive a Bun.serve that plays the panel's socket proxy and records what clients send
//   fakePanelApiForFile a Bun.serve that plays the panel's HTTP answers for a file's tests
//   openServerPage both of those: a server's page on a fake panel, mounting islands in it
//   withI18n      an element inside the I18nProvider, with the English messages unless told
//   click, typeInto  a user's click and typing on rendered islands, inside act()
import { afterAll, afterEach, beforeAll, beforeEach } from "bun:test";
import { act, type ReactElement, type ReactNode } from "react";
import type { HydrationOptions, Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import type { Server, ServerWebSocket } from "bun";
import { Window, type HTMLElement as PageElement } from "happy-dom";
import { makeTranslate, type Translate } from "../core/i18n/translate";
import type { LiveMessage } from "../core/live";
import en from "../locales/en.json";
import { I18nProvider } from "./lib/i18n";
import { serverLive } from "./lib/server-live";

/** Polls `check` every 10 ms until it holds; throws "timed out waiting for <what>" after `ms`. */
export async function until(check: () => boolean, ms = 3000, what = "condition"): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}

/** `node` as an island renders it: inside the I18nProvider, by default with the English messages. */
/** The English messages under `prefixes`: what an island declaring them receives. */
export function referenceMessages(prefixes: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(en as Record<string, string>).filter(([key]) => prefixes.some((p) => key.startsWith(p))));
}

/** The panel's answer to /i18n/messages (islands fetch late messages there); null for any other path. */
export function messagesAnswer(url: URL): Response | null {
  return url.pathname === "/i18n/messages" ? Response.json(referenceMessages(url.searchParams.getAll("prefix"))) : null;
}

export function withI18n(node: ReactNode, t: Translate = makeTranslate(en)): ReactElement {
  return <I18nProvider t={t}>{node}</I18nProvider>;
}

// ── the page's globals ───────────────────────────────────────────────────────────────────────

export interface DomOptions {
  /** More of the window's properties to make globals, besides window, document, HTMLElement, Node. */
  expose?: readonly string[];
  /**
   * The global `location`: by default a URL of the page; an object to stand in for it (a page
   * that reloads, say); `null` leaves it as it is (restore still puts back what was there).
   */
  location?: object | null;
  /** Sets IS_REACT_ACT_ENVIRONMENT, for tests that drive React with act(). */
  act?: boolean;
  /** Makes fetch resolve relative addresses against the page, as the browser does (Bun's does not). */
  pageFetch?: boolean;
}

export interface InstalledDom {
  window: Window;
  /**
   * hydrateRoot from react-dom/client, loaded here rather than imported at the top of a test file:
   * react-dom/client decides once, when first loaded, how to listen for text input, and test files
   * share their modules. Loaded before any `window` exists it falls back to old-IE listeners and
   * ignores plain input events in every later file; loaded after installDom it behaves as in a
   * browser. The root is unmounted by restore.
   */
  hydrate(container: unknown, element: ReactNode, options?: HydrationOptions): Promise<Root>;
  /**
   * Unmounts the roots hydrate made and lets React finish (its scheduled work reads `window`),
   * ends the window's pending work, closes it, and puts back every global it set (and fetch).
   */
  restore(): Promise<void>;
}

const BASE_GLOBALS = ["window", "document", "HTMLElement", "Node"] as const;

/**
 * Opens a happy-dom window at `url` and sets it up as the globals of a browser page. Test files
 * share one global object, so call `restore` when done (afterAll, or afterEach for a window per test).
 */
export function installDom(url: string, options: DomOptions = {}): InstalledDom {
  const window = new Window({ url });
  const w = window as unknown as Record<string, unknown>;
  const values = new Map<string, unknown>();
  for (const name of [...BASE_GLOBALS, ...(options.expose ?? [])]) values.set(name, name === "window" ? window : w[name]);
  if (options.location !== null) values.set("location", options.location ?? new URL(url));
  if (options.act) values.set("IS_REACT_ACT_ENVIRONMENT", true);

  // Saved even when not set here, so that whatever a test puts there is undone as well.
  const saved = new Map<string, PropertyDescriptor | undefined>();
  for (const name of [...values.keys(), "location"]) saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
  for (const [name, value] of values) Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });

  const realFetch = globalThis.fetch;
  if (options.pageFetch) {
    globalThis.fetch = ((input: string | URL, init?: RequestInit) => realFetch(new URL(String(input), window.location.href), init)) as typeof fetch;
  }

  const roots: Root[] = [];
  return {
    window,
    async hydrate(container, element, hydrationOptions) {
      const { hydrateRoot } = await import("react-dom/client");
      const root = hydrateRoot(container as Element, element, hydrationOptions);
      roots.push(root);
      return root;
    },
    async restore() {
      for (const root of roots.splice(0)) root.unmount();
      // React runs passive effects from the scheduler, on setImmediate: let what is queued run.
      await new Promise((resolve) => setImmediate(resolve));
      await window.happyDOM.abort();
      window.close();
      if (options.pageFetch) globalThis.fetch = realFetch;
      for (const [name, descriptor] of saved) {
        if (descriptor) Object.defineProperty(globalThis, name, descriptor);
        else delete (globalThis as Record<string, unknown>)[name];
      }
    },
  };
}

/**
 * For a file whose every test hydrates one island inside a form: before each test a fresh window
 * at `url` (act on, `expose` made globals too) whose body is
 * `<form id="{formId}"><div id="root"></div></form>`, handed to `use`; after it the island is
 * unmounted inside act like every other update there (restore would do it outside), then the
 * window restored. Returns `mount`: renders `element` into #root on the "server", lets `before`
 * play the user on that plain form, hydrates, and gives back the hydration's mismatches.
 */
export function formIslandPerTest(
  url: string,
  options: { expose: readonly string[]; formId: string },
  use: (dom: InstalledDom) => void,
): (element: ReactElement, before?: () => void) => Promise<unknown[]> {
  let dom: InstalledDom;
  let mounted: Root | null = null;
  beforeEach(() => {
    dom = installDom(url, { expose: options.expose, act: true });
    dom.window.document.body.innerHTML = `<form id="${options.formId}"><div id="root"></div></form>`;
    use(dom);
  });
  afterEach(async () => {
    if (mounted) await act(async () => mounted!.unmount());
    mounted = null;
    await dom.restore();
  });
  return async (element, before) => {
    const root = dom.window.document.querySelector("#root")!;
    root.innerHTML = renderToString(element);
    before?.();
    const mismatches: unknown[] = [];
    await act(async () => void (mounted = await dom.hydrate(root, element, { onRecoverableError: (error) => mismatches.push(error) })));
    return mismatches;
  };
}

// ── a fake panel socket proxy ────────────────────────────────────────────────────────────────

type Socket = ServerWebSocket<{ id: string }>;

export interface FakeLiveOptions {
  /** Answers the requests that are not for the socket; `undefined` (or no handler) is a 404. */
  http?: (req: Request, url: URL) => Response | undefined | Promise<Response | undefined>;
  /** Called with each message a client sends (after it is recorded), to answer it, say. */
  onMessage?: (message: LiveMessage<string, any>, socket: Socket) => void;
}

/** A message a client sent: its fields beside `type` (core/live CLIENT_MESSAGES). */
export type SentMessage = { type: string } & Record<string, any>;

export interface FakeLive {
  server: Server<{ id: string }>;
  port: number;
  /** The address of `path` on this server, e.g. the page to open the window at. */
  url(path: string): string;
  /** Every message clients sent on their sockets, in order. */
  received: SentMessage[];
  /** The messages sent on the sockets of server `id`. */
  receivedFrom(id: string): SentMessage[];
  /** The open socket of server `id`; without an id, the socket opened last. */
  socket(id?: string): Socket | undefined;
  /** Sends `message` as JSON on socket(id). */
  send(message: LiveMessage<string, any>, id?: string): void;
  stop(): void;
}

/**
 * A Bun.serve on 127.0.0.1 that upgrades /proxy/daemon/socket/<id> like the panel does (ids
 * starting with "down" stand for a socket that cannot be reached: 503), greets each socket with a
 * running status, and records what clients send.
 */
export function startFakeLive(options: FakeLiveOptions = {}): FakeLive {
  const received: SentMessage[] = [];
  const byId = new Map<string, SentMessage[]>();
  const sockets = new Map<string, Socket>();
  let latest: Socket | undefined;
  const server = Bun.serve<{ id: string }>({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req, srv) {
      const url = new URL(req.url);
      const socket = url.pathname.match(/^\/proxy\/daemon\/socket\/(\w+)$/);
      if (socket) {
        if (socket[1]!.startsWith("down")) return new Response("unavailable", { status: 503 });
        if (srv.upgrade(req, { data: { id: socket[1]! } })) return undefined;
        return new Response("upgrade failed", { status: 400 });
      }
      return (await options.http?.(req, url)) ?? new Response(null, { status: 404 });
    },
    websocket: {
      open(ws) {
        sockets.set(ws.data.id, ws);
        latest = ws;
        ws.send(JSON.stringify({ type: "status", data: { running: true, installing: false } }));
      },
      message(ws, raw) {
        const message = JSON.parse(String(raw)) as SentMessage;
        received.push(message);
        if (!byId.has(ws.data.id)) byId.set(ws.data.id, []);
        byId.get(ws.data.id)!.push(message);
        options.onMessage?.(message, ws);
      },
      close(ws) {
        if (sockets.get(ws.data.id) === ws) sockets.delete(ws.data.id);
      },
    },
  });
  const socket = (id?: string) => (id === undefined ? latest : sockets.get(id));
  return {
    server,
    port: server.port!,
    url: (path) => `http://127.0.0.1:${server.port}${path}`,
    received,
    receivedFrom: (id) => byId.get(id) ?? [],
    socket,
    send(message, id) {
      const ws = socket(id);
      if (!ws) throw new Error(`no socket open${id === undefined ? "" : ` for ${id}`}`);
      ws.send(JSON.stringify(message));
    },
    stop: () => void server.stop(true),
  };
}

// ── a fake panel API ─────────────────────────────────────────────────────────────────────────

export interface FakePanelApi {
  /** The address of `path` on it (http://localhost:<port><path>), once the tests have begun. */
  url(path: string): string;
}

/**
 * For a file whose islands fetch from the panel: a real Bun.serve on a free port, started before
 * its tests and stopped after them, that answers the late messages as the panel does
 * (messagesAnswer) and hands every other request to `answer`.
 */
export function fakePanelApiForFile(answer: (request: Request, url: URL) => Response | Promise<Response>): FakePanelApi {
  let server: Server<undefined> | undefined;
  beforeAll(() => {
    server = Bun.serve({
      port: 0,
      async fetch(request) {
        const url = new URL(request.url);
        return messagesAnswer(url) ?? (await answer(request, url));
      },
    });
  });
  afterAll(() => server?.stop(true));
  return { url: (path) => `http://localhost:${server!.port}${path}` };
}

// ── both: a server's page in the panel ───────────────────────────────────────────────────────

export interface ServerPage {
  panel: FakeLive;
  dom: InstalledDom;
  window: Window;
  /**
   * Renders `element` on the "server" into a new container in the page's body, then hydrates it
   * there as the browser does; returns the container (the test removes it when done).
   */
  mount(element: ReactElement): Promise<PageElement>;
  /**
   * Closes the live connections of the page's server and of `otherServerIds` (serverLive keeps
   * one per id for the whole test process), stops the fake panel and restores the DOM.
   */
  close(...otherServerIds: string[]): Promise<void>;
}

/** A fake panel (startFakeLive) and, installed as the globals, its page of server `serverId`. */
export function openServerPage(serverId: string, options: FakeLiveOptions = {}): ServerPage {
  const panel = startFakeLive(options);
  const dom = installDom(panel.url(`/server/${serverId}`));
  return {
    panel,
    dom,
    window: dom.window,
    async mount(element) {
      const container = dom.window.document.createElement("div");
      container.innerHTML = renderToString(element);
      dom.window.document.body.append(container);
      await dom.hydrate(container, element);
      return container;
    },
    async close(...otherServerIds) {
      for (const id of [serverId, ...otherServerIds]) serverLive(id).close();
      panel.stop();
      await dom.restore();
    },
  };
}

/** Clicks an element inside act(), so React has re-rendered when it returns. */
export async function click(el: Element | null): Promise<void> {
  if (!el) throw new Error("nothing to click");
  await act(async () => (el as HTMLElement).click());
}

/**
 * Types into a React-controlled input, textarea or select the way a browser does: focus, native
 * value setter, input (change for a select), keyup. The focus and keyup matter when react-dom was
 * first loaded by another test file before any `window` existed: it then listens for text
 * changes the old-IE way (focusin, attachEvent, keyup).
 */
export async function typeInto(el: Element | null, value: string): Promise<void> {
  if (!el) throw new Error("no field");
  const view = el.ownerDocument.defaultView as unknown as Window;
  const fire = (name: string) => el.dispatchEvent(new view.Event(name, { bubbles: true }) as unknown as Event);
  // happy-dom's own classes: React reads values through their setters.
  const proto = { SELECT: view.HTMLSelectElement, TEXTAREA: view.HTMLTextAreaElement }[el.tagName] ?? view.HTMLInputElement;
  Object.assign(el, { attachEvent: () => {}, detachEvent: () => {} });
  await act(async () => {
    fire("focusin");
    Object.getOwnPropertyDescriptor(proto.prototype, "value")!.set!.call(el, value);
    fire(el.tagName === "SELECT" ? "change" : "input");
    fire("keyup");
    fire("focusout");
  });
}
