// The copy button of the SFTP card: nothing without script (the value is plain text beside it);
// hydrated, it copies and shows 'Copied' for 6 seconds (spec section 9).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { renderToString } from "react-dom/server";
import island, { COPIED_MS, type CopyButtonProps } from "./CopyButton";
import { installDom, until, withI18n, type InstalledDom } from "./test-support";

let dom: InstalledDom;
const copied: string[] = [];
beforeAll(() => {
  dom = installDom("https://panel.example/server/c1?tab=files", { expose: ["navigator"] });
  Object.defineProperty(dom.window.navigator, "clipboard", { value: { writeText: async (text: string) => void copied.push(text) }, configurable: true });
  Object.defineProperty(dom.window, "isSecureContext", { value: true, configurable: true });
});
afterAll(() => dom.restore());

const element = (props: CopyButtonProps) => withI18n(<island.component {...props} />);

describe("CopyButton", () => {
  test("renders nothing on the server", () => {
    expect(renderToString(element({ value: "x", what: "Username" }))).toBe("");
  });

  test("copies the value and shows 'Copied' for 6 seconds", async () => {
    expect(COPIED_MS).toBe(6000);
    const root = dom.window.document.createElement("div");
    dom.window.document.body.append(root);
    await dom.hydrate(root, element({ value: "ann@example.com#ab12cd34", what: "Username" }));
    await until(() => root.querySelector("button") !== null, 2000, "button");
    const button = root.querySelector("button")!;
    expect(button.getAttribute("aria-label")).toBe("Copy Username");
    (button as unknown as HTMLButtonElement).click();
    await until(() => root.querySelector(".copy-chip") !== null, 2000, "chip");
    expect(root.querySelector(".copy-chip")!.textContent).toBe("Copied");
    expect(copied).toEqual(["ann@example.com#ab12cd34"]);
    await Bun.sleep(COPIED_MS - 1000);
    expect(root.querySelector(".copy-chip")).not.toBeNull();
    await until(() => root.querySelector(".copy-chip") === null, 2000, "chip gone");
  }, 15_000);
});
