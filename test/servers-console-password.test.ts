// A template with a network console (telnet, RCON) names its password through a variable whose
// default would be the same on every server made from it. A new server gets a random password of
// its own there, unless its creator chose one; a template without such a console keeps its values.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { panelWithNode, type PanelWithNode } from "./helpers/panel-node";
import { putTemplate } from "../server/services/templates";
import { echoTemplate } from "./helpers/node";

let t: PanelWithNode;
beforeAll(async () => {
  t = await panelWithNode();
  const base = echoTemplate();
  await putTemplate(t.panel.db, "rcon-game", {
    ...base,
    run: { ...base.run, stdin: { type: "rcon", ip: "127.0.0.1", port: "${rconPort}", password: "${rconPassword}" } },
    data: { ...base.data, rconPort: { type: "integer", value: 27015, userEdit: false }, rconPassword: { display: "RCON password", type: "string", value: "changeme", userEdit: true } },
  });
  await putTemplate(t.panel.db, "plain-game", { ...base, data: { ...base.data, rconPassword: { type: "string", value: "changeme", userEdit: true } } });
});
afterAll(() => t.node.stop());

const password = async (id: string) => (await t.node.json("GET", `/daemon/server/${id}`)).data.rconPassword.value as string;

test("each new server gets its own random console password unless its creator chose one", async () => {
  const first = await t.createServer("first", { template: "rcon-game" });
  const second = await t.createServer("second", { template: "rcon-game" });
  const [a, b] = [await password(first), await password(second)];
  expect(a).not.toBe("changeme");
  expect(a.length).toBeGreaterThanOrEqual(24);
  expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(b).not.toBe(a);
  const chosen = await t.createServer("chosen", { template: "rcon-game", variables: { rconPassword: "my own secret" } });
  expect(await password(chosen)).toBe("my own secret");
  // No network console, nothing to protect: the template's value stays.
  const plain = await t.createServer("plain", { template: "plain-game" });
  expect(await password(plain)).toBe("changeme");
});
