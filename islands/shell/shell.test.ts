// The shell runtime against happy-dom: hotkeys, toasts and the error-details overlay.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Window } from "happy-dom";

let window: Window;
beforeEach(() => {
  window = new Window({ url: "http://localhost/server" });
  Object.assign(globalThis, { document: window.document, window, CSS: window.CSS, HTMLElement: window.HTMLElement });
});
afterEach(async () => {
  await window.happyDOM.abort();
  window.close();
});

function press(key: string, target: { dispatchEvent(e: any): unknown } = window.document.body) {
  target.dispatchEvent(new window.KeyboardEvent("keydown", { key, bubbles: true }) as unknown as Event);
}

describe("hotkeys", () => {
  test("a two-key sequence clicks the element that declares it, and only that", async () => {
    const { installHotkeys } = await import("./hotkeys");
    window.document.body.innerHTML = `<a data-hotkey="g a" href="#a">a</a><a data-hotkey="g s" href="#s">s</a><input id="i">`;
    const clicked: string[] = [];
    for (const a of window.document.querySelectorAll("a")) a.addEventListener("click", (e) => { e.preventDefault(); clicked.push(a.getAttribute("data-hotkey")!); });
    installHotkeys(window.document as unknown as Document);
    press("g");
    press("s");
    press("g");
    press("x");
    press("a");
    expect(clicked).toEqual(["g s"]);
  });

  test("keys typed into a field are not hotkeys", async () => {
    const { installHotkeys } = await import("./hotkeys");
    window.document.body.innerHTML = `<a data-hotkey="g a" href="#a">a</a><input id="i">`;
    let clicks = 0;
    window.document.querySelector("a")!.addEventListener("click", (e) => { e.preventDefault(); clicks++; });
    installHotkeys(window.document as unknown as Document);
    const input = window.document.getElementById("i")!;
    press("g", input as never);
    press("a", input as never);
    expect(clicks).toBe(0);
  });

  test("a key that is a hotkey and starts a sequence fires alone after a pause, or when no sequence follows", async () => {
    const { installHotkeys, SINGLE_WAIT_MS } = await import("./hotkeys");
    expect(SINGLE_WAIT_MS).toBeLessThan(1000);
    window.document.body.innerHTML = `<button data-hotkey="r">refresh</button><button data-hotkey="r s">stop</button><button data-hotkey="u">upload</button>`;
    const clicked: string[] = [];
    for (const b of window.document.querySelectorAll("button")) b.addEventListener("click", () => clicked.push(b.getAttribute("data-hotkey")!));
    installHotkeys(window.document as unknown as Document);

    // The sequence wins when its second key comes in time; the single key does not fire as well.
    press("r");
    press("s");
    await Bun.sleep(SINGLE_WAIT_MS + 100);
    expect(clicked).toEqual(["r s"]);

    // Alone, "r" waits for a possible second key, then fires.
    press("r");
    expect(clicked).toEqual(["r s"]);
    await Bun.sleep(SINGLE_WAIT_MS + 100);
    expect(clicked).toEqual(["r s", "r"]);

    // Followed by a key that completes no sequence: "r" fires at once and the next key counts on its own.
    press("r");
    press("u");
    expect(clicked).toEqual(["r s", "r", "r", "u"]);
    await Bun.sleep(SINGLE_WAIT_MS + 100);
    expect(clicked).toEqual(["r s", "r", "r", "u"]);
  });

  test("while a modal dialog is open, only its own hotkeys fire", async () => {
    const { installHotkeys } = await import("./hotkeys");
    window.document.body.innerHTML = `<button data-hotkey="u">page</button><div aria-modal="true"><button data-hotkey="x">dialog</button></div>`;
    const clicked: string[] = [];
    for (const b of window.document.querySelectorAll("button")) b.addEventListener("click", () => clicked.push(b.textContent!));
    installHotkeys(window.document as unknown as Document);
    press("u");
    press("x");
    expect(clicked).toEqual(["dialog"]);
    window.document.querySelector("[aria-modal]")!.remove();
    press("u");
    expect(clicked).toEqual(["dialog", "page"]);
  });
});

describe("toasts and error details", () => {
  test("toasts leave after 2500 ms, error toasts after 6000 ms", async () => {
    const { showToast, TOAST_MS, ERROR_TOAST_MS } = await import("./toasts");
    expect([TOAST_MS, ERROR_TOAST_MS]).toEqual([2500, 6000]);
    window.document.body.innerHTML = `<div id="toasts"></div>`;
    showToast("Saved");
    showToast("Broken", { error: true });
    expect(window.document.querySelectorAll(".toast").length).toBe(2);
    expect(window.document.querySelector(".toast-error")!.getAttribute("role")).toBe("alert");
  });

  test("the technical dump names the status and masks every password", async () => {
    const { technicalDump } = await import("./report-error");
    const { ApiError } = await import("../lib/api");
    const t = (key: string) => ({ "errors.http.502": "Bad gateway" })[key] ?? key;
    const error = new ApiError(502, undefined, { method: "PUT", url: "/api/self", body: { password: "old-secret", newPassword: "new-secret", username: "kept" } });
    const dump = technicalDump(error, t);
    expect(dump).toContain('"statusText": "Bad gateway"');
    expect(dump).toContain('"username": "kept"');
    expect(dump).not.toContain("old-secret");
    expect(dump).not.toContain("new-secret");
  });
});

describe("session renewal", () => {
  test("while logged in the session is renewed on schedule; a 401 sends the user to log in", async () => {
    const { renewSessions, SESSION_RENEWAL_MS, SESSION_TIMED_OUT_URL } = await import("./session-renewal");
    expect(SESSION_RENEWAL_MS).toBe(600_000);
    const calls: string[] = [];
    const assigned: string[] = [];
    const realFetch = globalThis.fetch;
    // Put back as it was (in Bun, usually absent): the next file in this worker sees the globals.
    const realLocation = Object.getOwnPropertyDescriptor(globalThis, "location");
    globalThis.fetch = (async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method} ${url}`);
      return new Response(null, { status: calls.length === 1 ? 200 : 401 });
    }) as typeof fetch;
    Object.defineProperty(globalThis, "location", { value: { assign: (u: string) => assigned.push(u) }, configurable: true });
    try {
      window.document.body.dataset.session = "";
      const stop = renewSessions(window.document as unknown as Document, 10);
      await Bun.sleep(45);
      stop();
      expect(calls.slice(0, 2)).toEqual(["POST /auth/reauth", "POST /auth/reauth"]);
      expect(assigned[0]).toBe(SESSION_TIMED_OUT_URL);
    } finally {
      globalThis.fetch = realFetch;
      if (realLocation) Object.defineProperty(globalThis, "location", realLocation);
      else delete (globalThis as { location?: unknown }).location;
    }
  });

  test("logged out, nothing is renewed", async () => {
    const { renewSessions } = await import("./session-renewal");
    let called = false;
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async () => ((called = true), new Response())) as unknown as typeof fetch;
    try {
      const stop = renewSessions(window.document as unknown as Document, 5);
      await Bun.sleep(20);
      stop();
      expect(called).toBe(false);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
