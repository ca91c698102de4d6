// The shell's copy buttons against happy-dom: hidden in the markup (no script: the value is copied
// by hand), shown by the shell; a press copies the value and shows 'Copied' for 6 seconds.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { Window } from "happy-dom";
import { COPIED_MS } from "../lib/copy-text";
import { installCopyButtons } from "./copy-buttons";

let window: Window;
const copied: string[] = [];
beforeEach(() => {
  window = new Window({ url: "https://panel.example/node/n1" });
  Object.defineProperty(window.navigator, "clipboard", { value: { writeText: async (text: string) => void copied.push(text) }, configurable: true });
  Object.assign(globalThis, { document: window.document, window, navigator: window.navigator });
  Object.defineProperty(window, "isSecureContext", { value: true, configurable: true });
});
afterEach(async () => {
  await window.happyDOM.abort();
  window.close();
});

test("shown by the shell; copies its value and shows 'Copied' for 6 seconds", async () => {
  expect(COPIED_MS).toBe(6000);
  window.document.body.innerHTML = `<span class="copy-button"><button type="button" data-copy="ann@example.com#ab12cd34" data-copied="Copied" aria-label="Copy Username" hidden>c</button></span>`;
  const button = window.document.querySelector("button")!;
  expect(button.hidden).toBe(true);
  installCopyButtons(window.document as unknown as Document);
  expect(button.hidden).toBe(false);
  button.click();
  await Bun.sleep(50);
  expect(copied).toEqual(["ann@example.com#ab12cd34"]);
  const chip = () => window.document.querySelector(".copy-button .copy-chip");
  expect(chip()?.textContent).toBe("Copied");
  expect(chip()?.getAttribute("role")).toBe("status");
  // A second press keeps one chip and starts its 6 seconds again.
  await Bun.sleep(1000);
  button.click();
  await Bun.sleep(50);
  expect(window.document.querySelectorAll(".copy-chip").length).toBe(1);
  await Bun.sleep(COPIED_MS - 500);
  expect(chip()).not.toBeNull();
  await Bun.sleep(1000);
  expect(chip()).toBeNull();
}, 15_000);
