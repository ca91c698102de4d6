// Headless Chromium through playwright-core, with the flags this workplace needs.
import { chromium, type Browser, type Route } from "playwright-core";
import { CHROMIUM_PATH } from "./require-part";

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
}

/** The panel's static files: the pages' scripts, islands' chunks, styles, icons. */
const STATIC_FILES = /^https?:\/\/[^/]+\/(assets|static)\//;

/** The waits before asking the panel again for a static file (a busy machine's panel can be slow to accept). */
const AGAIN_AFTER_MS = [100, 250, 500, 1000];

async function fetchSteadily(route: Route): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await route.fulfill({ response: await route.fetch() });
    } catch {
      if (attempt >= AGAIN_AFTER_MS.length) return route.abort().catch(() => undefined);
      await Bun.sleep(AGAIN_AFTER_MS[attempt]!);
    }
  }
}

/**
 * Chromium ends the requests it has in flight (net::ERR_NETWORK_CHANGED) whenever a network
 * interface comes or goes on the machine, and the tests' servers make and remove theirs all the
 * time (each server has a network of its own): a page's scripts then failed to load at random and
 * its islands never hydrated. Every context of `browser` has the panel's static files fetched
 * through Playwright instead: the same answers from the same panel, over connections Chromium
 * does not drop, asked again when one fails. Pages, API calls and sockets stay Chromium's own.
 */
export function steadyStaticFiles(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.route(STATIC_FILES, fetchSteadily);
    return context;
  };
  return browser;
}
