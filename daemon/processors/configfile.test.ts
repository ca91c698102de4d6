// The configfile step against a real server folder: placeholders from the server's values,
// files made when missing, written whole, charged to the disk space, and a file its parser
// cannot read left as it was.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stepSchema, type Step } from "../../core/definition/steps";
import { Jail } from "../files/jail";
import { DiskQuota, setQuota } from "../files/quota";
import { runSteps } from "./index";
import type { StepContext } from "./types";
import { renderMessage } from "../../core/live/daemon-message";
import { english } from "../../locales/english";

const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function folder(): { root: string; ctx: StepContext; lines: string[] } {
  const base = mkdtempSync(join(tmpdir(), "kiln-configfile-"));
  temps.push(base);
  const root = join(base, "server");
  mkdirSync(root);
  const lines: string[] = [];
  const ctx: StepContext = {
    jail: new Jail(root),
    binariesDir: join(base, "bin"),
    sources: {} as StepContext["sources"],
    log: (line) => void lines.push(renderMessage(line, english)),
    execute: () => Promise.reject(new Error("configfile runs nothing")),
    serverId: "s1",
    placeholders: { facts: { port: "25600", ip: "0.0.0.0", memory: "1024", uuid: "s1" }, dockerInterface: "172.17.0.1" },
  };
  return { root, ctx, lines };
}

const step = (raw: object): Step => stepSchema.parse({ type: "configfile", ...raw });

describe("configfile", () => {
  test("egg placeholders and ${variables} resolve once; a value holding a placeholder is not resolved again", async () => {
    const { root, ctx } = folder();
    writeFileSync(join(root, "server.properties"), "server-port=25565\nmotd=x\n");
    await runSteps(
      [step({ file: "server.properties", parser: "properties", replace: [{ match: "server-port", value: "{{server.build.default.port}}" }, { match: "motd", value: "{{env.MOTD}}" }, { match: "level-name", value: "${world}" }] })],
      { MOTD: "{{env.RCON_PASSWORD}} ${RCON_PASSWORD}", RCON_PASSWORD: "secret", world: "{{server.uuid}}" },
      ctx,
    );
    expect(readFileSync(join(root, "server.properties"), "utf8")).toBe("server-port=25600\nmotd={{env.RCON_PASSWORD}} ${RCON_PASSWORD}\nlevel-name={{server.uuid}}\n");
  });

  test("a missing file and its folders are made; no temporary file is left", async () => {
    const { root, ctx } = folder();
    await runSteps([step({ file: "/config/game.json", parser: "json", replace: [{ match: "net.port", value: "{{server.allocations.default.port}}" }] })], {}, ctx);
    expect(JSON.parse(readFileSync(join(root, "config", "game.json"), "utf8"))).toEqual({ net: { port: 25600 } });
    expect(readdirSync(join(root, "config"))).toEqual(["game.json"]);
  });

  test("a file its parser cannot read is left as it is, and the console says so; the step goes on", async () => {
    const { root, ctx, lines } = folder();
    writeFileSync(join(root, "bungee.yml"), "servers: [broken\n");
    await runSteps([step({ file: "bungee.yml", parser: "yaml", replace: [{ match: "a", value: "1" }] })], {}, ctx);
    expect(readFileSync(join(root, "bungee.yml"), "utf8")).toBe("servers: [broken\n");
    expect(lines.some((line) => line.includes("bungee.yml left as it is"))).toBe(true);
  });

  test("a link inside the folder is followed: the file it leads to is edited, the link stays", async () => {
    const { root, ctx } = folder();
    writeFileSync(join(root, "real.ini"), "[a]\nb=1\n");
    symlinkSync("real.ini", join(root, "link.ini"));
    await runSteps([step({ file: "link.ini", parser: "ini", replace: [{ match: "a.b", value: "2" }] })], {}, ctx);
    expect(readFileSync(join(root, "real.ini"), "utf8")).toBe("[a]\nb=2\n");
  });

  test("the rewrite is charged to the server's disk space", async () => {
    const { root, ctx } = folder();
    const quota = new DiskQuota(() => 1024);
    quota.record(1000, 0);
    setQuota(ctx.jail, quota);
    writeFileSync(join(root, "a.json"), "{}");
    await expect(runSteps([step({ file: "a.json", parser: "json", replace: [{ match: "big", value: "x".repeat(4096) }] })], {}, ctx)).rejects.toThrow();
    expect(readFileSync(join(root, "a.json"), "utf8")).toBe("{}");
    expect(readdirSync(root)).toEqual(["a.json"]);
  });
});
