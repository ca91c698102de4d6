// Headless Chromium through playwright-core, with the flags this workplace needs.
import { chromium, type Browser, type BrowserContext, type Page, type Route } from "playwright-core";
import { CHROMIUM_PATH } from "./require-part";

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
}

/**
 * This process's one Chromium, launched by the first browser test file that asks and used by every
 * later one: a launch costs about 2.2 s of CPU before a file's first test, and the files of one
 * `bun test` worker share their modules (`--no-isolate`, and a plain `bun test` of several files),
 * so each browser file paid it again. Launched again when it is gone (closed, or killed with a
 * timed-out test's processes). Under `--isolate` each file has modules of its own, and bun ends the
 * processes a file leaves: each file then has its own, as before. Playwright ends it when the
 * process exits.
 */
let processBrowser: Promise<Browser> | undefined;

function sharedBrowser(): Promise<Browser> {
  // Chained on the last call's browser, so two files asking at once launch one Chromium.
  processBrowser = (processBrowser ?? launchBrowser()).then(
    (browser) => (browser.isConnected() ? browser : launchBrowser()),
    () => launchBrowser(),
  );
  return processBrowser;
}

/**
 * A test file's view of the process's Chromium: what the file isolates is its browser contexts
 * (each its own cookies, storage, cache and permissions), made and closed by the file as before;
 * `close()` closes the contexts made through it (and their pages) and leaves Chromium to the next
 * file. Everything else is the shared browser's.
 */
export async function fileBrowser(): Promise<Browser> {
  const browser = await sharedBrowser();
  const contexts = new Set<BrowserContext>();
  const file = Object.create(browser) as Browser;
  // Browser.newPage makes its context through this.newContext: the file's, so it is counted too.
  file.newContext = async (options) => {
    const context = await browser.newContext(options);
    contexts.add(context);
    context.once("close", () => contexts.delete(context));
    return context;
  };
  file.contexts = () => [...contexts];
  file.close = async () => {
    await Promise.all([...contexts].map((context) => context.close().catch(() => undefined)));
  };
  return file;
}

/** Closes the process's Chromium (a script that is not a test file, to end without waiting on it). */
export async function closeSharedBrowser(): Promise<void> {
  const browser = await processBrowser?.catch(() => undefined);
  processBrowser = undefined;
  await browser?.close();
}

/** The panel's static files: the pages' scripts, islands' chunks, styles, icons. */
const STATIC_FILES = /^https?:\/\/[^/]+\/(assets|static)\//;

/** The waits before asking the panel again for a static file (a busy machine's panel can be slow to accept). */
const AGAIN_AFTER_MS = [100, 250, 500, 1000];

/** A static file's answer as the panel gave it (without the transfer's headers), and until when it is fresh. */
interface KeptAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  freshUntil: number;
}

/**
 * Static files answered again from this test process while their Cache-Control keeps them fresh,
 * as a browser's cache answers them: a route turns Chromium's own HTTP cache off (even one turned
 * on again over CDP is passed by), and every page load fetched each of its bundles from the panel
 * again (0.32 s of CPU a page load instead of 0.275 s). The content-hashed bundles ("immutable")
 * are kept by path and query whichever panel served them, since a bundle's name is its content's
 * hash; anything else by its whole URL, for its max-age.
 */
const kept = new Map<string, KeptAnswer>();
/** Headers of the transfer, not the content: Playwright hands on the body already decoded. */
const TRANSFER_HEADERS = new Set(["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive", "date"]);

/** Where `response` may be kept and until when; null when it may not (not a 200, no max-age, no-store, no-cache). */
function keeping(url: URL, cacheControl: string): { key: string; freshUntil: number } | null {
  const maxAge = /\bmax-age=(\d+)/.exec(cacheControl);
  if (!maxAge || /\b(no-store|no-cache|private)\b/.test(cacheControl)) return null;
  const freshUntil = Date.now() + Number(maxAge[1]) * 1000;
  return { key: /\bimmutable\b/.test(cacheControl) ? url.pathname + url.search : url.href, freshUntil };
}

function keptFor(url: URL): KeptAnswer | undefined {
  for (const key of [url.pathname + url.search, url.href]) {
    const answer = kept.get(key);
    if (answer && answer.freshUntil > Date.now()) return answer;
  }
  return undefined;
}

async function fetchSteadily(route: Route): Promise<void> {
  const url = new URL(route.request().url());
  const get = route.request().method() === "GET";
  const answer = get ? keptFor(url) : undefined;
  if (answer) return await route.fulfill({ status: answer.status, headers: answer.headers, body: answer.body }).catch(() => undefined);
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await route.fetch();
      const keep = get && response.status() === 200 ? keeping(url, response.headers()["cache-control"] ?? "") : null;
      if (!keep) return await route.fulfill({ response });
      const headers = Object.fromEntries(Object.entries(response.headers()).filter(([name]) => !TRANSFER_HEADERS.has(name)));
      const body = await response.body();
      kept.set(keep.key, { status: 200, headers, body, freshUntil: keep.freshUntil });
      return await route.fulfill({ status: 200, headers, body });
    } catch {
      if (attempt >= AGAIN_AFTER_MS.length) return route.abort().catch(() => undefined);
      await Bun.sleep(AGAIN_AFTER_MS[attempt]!);
    }
  }
}

/** A navigation Chromium ended because a network interface came or went: nothing reached the page. */
const NETWORK_CHANGED = /net::ERR_NETWORK_CHANGED/;

/**
 * `page.goto` asked again when Chromium ended it with ERR_NETWORK_CHANGED (a GET: asking again is
 * what a user's reload does), after AGAIN_AFTER_MS; any other failure, or the last, is the test's.
 */
function steadyGoto(page: Page): Page {
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await goto(url, options);
      } catch (error) {
        if (attempt >= AGAIN_AFTER_MS.length || !NETWORK_CHANGED.test((error as Error).message)) throw error;
        await Bun.sleep(AGAIN_AFTER_MS[attempt]!);
      }
    }
  };
  return page;
}

function steadyPages(context: BrowserContext): void {
  const newPage = context.newPage.bind(context);
  context.newPage = async () => steadyGoto(await newPage());
}

/**
 * Chromium ends the requests it has in flight (net::ERR_NETWORK_CHANGED) whenever a network
 * interface comes or goes on the machine, and the tests' servers make and remove theirs all the
 * time (each server has a network of its own): a page's scripts then failed to load at random and
 * its islands never hydrated, and a navigation failed now and then. Every context of `browser` has
 * the panel's static files fetched through Playwright instead: the same answers from the same
 * panel, over connections Chromium does not drop, asked again when one fails; and its pages'
 * `goto` is asked again when Chromium ended it so. Form posts, API calls and sockets stay
 * Chromium's own.
 */
export function steadyStaticFiles(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.route(STATIC_FILES, fetchSteadily);
    steadyPages(context);
    return context;
  };
  return browser;
}

/**
 * What makes `page` scroll sideways: the first elements (outermost first) whose right edge passes
 * the viewport, by tag, classes and that edge; none when the page fits (a pixel of rounding aside).
 * A test expects `[]`, so a failure names what sticks out.
 */
export async function sidewaysOverflow(page: Page): Promise<string[]> {
  // Measured once the page's stylesheets have arrived: the elements a test waits for exist before
  // (a busy machine showed an unstyled table 539 px wide on a phone).
  await page.waitForLoadState("load");
  return await page.evaluate(() => {
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth <= width + 1) return [];
    const found: string[] = [];
    for (const el of document.querySelectorAll("body *")) {
      const right = el.getBoundingClientRect().right + window.scrollX;
      if (right <= width + 1) continue;
      const classes = typeof el.className === "string" && el.className.trim() ? `.${el.className.trim().split(/\s+/).join(".")}` : "";
      found.push(`${el.tagName.toLowerCase()}${classes} (${Math.round(right)} px)`);
      if (found.length === 5) break;
    }
    return found.length > 0 ? found : [`the page is ${document.documentElement.scrollWidth} px wide`];
  });
}
