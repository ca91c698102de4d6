// Headless Chromium through playwright-core, with the flags this workplace needs.
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM_PATH } from "./require-part";

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
}
