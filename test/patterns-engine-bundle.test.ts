// The pattern engine (re2js, 45 KB gzip) is the server's and the node's: no island bundle carries
// it (core/patterns). A page's script stays within its budget, and a template is checked on save.
import { expect, test } from "bun:test";
import { buildBundles } from "../server/assets";

test("no browser bundle holds the pattern engine", async () => {
  const { files } = await buildBundles();
  const holding: string[] = [];
  for (const [name, blob] of files) if (name.endsWith(".js") && (await blob.text()).includes("invalid or unsupported Perl syntax")) holding.push(name);
  expect(files.size).toBeGreaterThan(10);
  expect(holding).toEqual([]);
}, 60_000);
