// The island loader: finds island markers, and hydrates each from its own chunk when its moment
// comes (at load, when the browser is idle, or on first interaction). React itself is loaded with
// the first island that hydrates, never before.
import { ISLANDS } from "./registry";

interface Payload {
  islands: { name: string; props: object }[];
  messages: Record<string, string>;
}

const payloadEl = document.getElementById("kiln-islands");
const payload: Payload = payloadEl ? JSON.parse(payloadEl.textContent ?? "{}") : { islands: [], messages: {} };
const INTERACTION_EVENTS = ["pointerenter", "focusin", "touchstart", "pointerdown"] as const;

/**
 * The waits before asking again for an island's code that did not arrive: a phone changing
 * networks loses requests in flight, and so does Chromium whenever a network interface comes or
 * goes on the machine (it ends them with ERR_NETWORK_CHANGED).
 */
const RETRY_WAITS_MS = [250, 1000];

/** The module a failed import names: Chromium and Firefox put its address in the message. */
function failedModule(error: unknown): string | null {
  return /\bhttps?:\/\/[^\s"']+?\.js\b/.exec(String((error as Error | null)?.message ?? ""))?.[0] ?? null;
}

/**
 * `load`, asked again after the waits when it fails. A browser may keep a failed module import
 * failed for the page's life (Chromium 150 does: its module map remembers the failure), so the
 * module the failure names is asked for under a new address, a query the asset route ignores.
 */
async function withRetries<T>(load: () => Promise<T>): Promise<T> {
  let next = load;
  for (let attempt = 0; ; attempt++) {
    try {
      return await next();
    } catch (error) {
      if (attempt >= RETRY_WAITS_MS.length) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_WAITS_MS[attempt]));
      const failed = failedModule(error);
      next = failed ? () => import(`${failed.split("?")[0]}?retry=${attempt + 1}`) : load;
    }
  }
}

function islandCode(load: (typeof ISLANDS)[string]) {
  return Promise.all([withRetries(load), withRetries(() => import("./hydrate"))]);
}

async function hydrateMarker(el: HTMLElement): Promise<void> {
  if (el.dataset.hydrated !== undefined) return;
  el.dataset.hydrated = "";
  const use = payload.islands[Number(el.dataset.index)];
  const load = use && ISLANDS[use.name];
  if (!use || !load) return;
  // A button pressed while the island's code is still on its way is pressed again once it has
  // hydrated, or, if the code cannot load, submits its form the plain way.
  let pressed: HTMLButtonElement | null = null;
  const hold = (event: Event) => {
    const button = (event.target as Element).closest("button");
    if (!button) return;
    event.preventDefault();
    event.stopPropagation();
    pressed = button;
  };
  el.addEventListener("click", hold, true);
  try {
    const [{ default: island }, { hydrate }] = await islandCode(load);
    hydrate(el, island, use.props, payload.messages);
    el.removeEventListener("click", hold, true);
    (pressed as HTMLButtonElement | null)?.click();
  } catch {
    el.removeEventListener("click", hold, true);
    const button = pressed as HTMLButtonElement | null;
    if (button?.form) button.form.requestSubmit(button);
  }
}

/** The longest an island marked `idle` waits for an idle moment. */
const IDLE_WAIT_MS = 2000;

for (const el of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const when = el.dataset.hydrate;
  if (when === "interaction") {
    const start = () => {
      for (const type of INTERACTION_EVENTS) el.removeEventListener(type, start);
      void hydrateMarker(el);
    };
    for (const type of INTERACTION_EVENTS) el.addEventListener(type, start, { passive: true });
  } else if (when === "idle" && "requestIdleCallback" in window) {
    // An idle moment may not come while a page is busy (a flooding console, a slow phone): after
    // IDLE_WAIT_MS the island hydrates anyway rather than staying a plain form.
    requestIdleCallback(() => void hydrateMarker(el), { timeout: IDLE_WAIT_MS });
  } else {
    void hydrateMarker(el);
  }
}
