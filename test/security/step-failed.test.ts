// A failed install or pre-start step is the template's or its values' doing, not a fault of the
// panel: it used to answer 500, which clients show as "server error" with the reason hidden in a
// technical dump. It answers ErrStepFailed with its catalogue status (422: the request was
// understood, the server's steps could not be carried out) and the step and the reason, over HTTP
// and over the live socket (whose refusal the server page toasts), never a stack or a host path.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ERROR_STATUS } from "../../core/errors";
import { translatorFor } from "../../locales/tables";
import { putTemplate } from "../../server/services/templates";
import { echoTemplate, eventually, type SocketMessage } from "../helpers/node";
import { servedPanelWithServer, type ServedPanel } from "../helpers/panel-node";

let rig: ServedPanel;
let installFails = "";
let startFails = "";

beforeAll(async () => {
  rig = await servedPanelWithServer("steps");
  const failing = { type: "command" as const, commands: "sh -c 'echo step says no; exit 4'" };
  await putTemplate(rig.ctx.panel.db, "failing-install", { ...echoTemplate(), install: [failing] } as never);
  await putTemplate(rig.ctx.panel.db, "failing-start", echoTemplate({ pre: [failing] }) as never);
  installFails = await rig.ctx.createServer("install fails", { template: "failing-install" });
  startFails = await rig.ctx.createServer("start fails", { template: "failing-start" });
});
afterAll(() => rig.stop());

function expectStepFailed(body: { error: { code: string; msg: string; metadata: { step: string; reason: string } } }): void {
  expect(body.error.code).toBe("ErrStepFailed");
  expect(body.error.metadata.step).toBe("command");
  expect(body.error.metadata.reason.length).toBeGreaterThan(0);
  expect(body.error.msg).toContain(body.error.metadata.reason);
  expect(JSON.stringify(body)).not.toContain(rig.node.config.dataDir);
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\.ts:\d+/);
}

describe("a failed step is the caller's 4xx with its reason", () => {
  test("the catalogue says 422", () => {
    expect(ERROR_STATUS.ErrStepFailed).toBe(422);
  });

  for (const [what, server, action] of [["install", () => installFails, "install"], ["start (pre-start step)", () => startFails, "start"]] as const) {
    test(`${what} with wait=true through the panel: 422, ErrStepFailed, the step and its reason`, async () => {
      const res = await rig.ctx.panel.request(`/proxy/daemon/server/${server()}/${action}?wait=true`, { method: "POST", headers: { authorization: `Bearer ${rig.ctx.admin.token}` } });
      expect(res.status).toBe(422);
      expectStepFailed(await res.json());
    });
  }

  test("over the live socket the refusal carries the reason, and the page's toast says it", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${rig.server.port}/proxy/daemon/socket/${installFails}`, { headers: { authorization: `Bearer ${rig.ctx.admin.token}` } } as unknown as string[]);
    const messages: SocketMessage[] = [];
    ws.onmessage = (event) => messages.push(JSON.parse(String(event.data)));
    await new Promise<void>((resolve, reject) => ((ws.onopen = () => resolve()), (ws.onerror = () => reject(new Error("socket refused")))));
    ws.send(JSON.stringify({ type: "install" }));
    await eventually(() => messages.some((m) => m.error), 15_000, "the refusal");
    const refusal = messages.find((m) => m.error)!;
    expectStepFailed(refusal as never);
    // What the server page's toast shows for it (islands/shell/report-error: the code's message with its metadata).
    const toast = translatorFor("en_US")("errors.ErrStepFailed", refusal.error.metadata);
    expect(toast).toContain(refusal.error.metadata.reason);
    expect(toast).toContain("command");
    ws.close();
  });
});
