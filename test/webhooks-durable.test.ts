// Webhook deliveries are kept in the database, so a panel killed with SIGKILL between two
// attempts sends the delivery again after it starts: nothing is lost, and the receiver sees the
// same delivery (same Kiln-Delivery id, same body) at least once and, here, exactly twice: the
// refused attempt before the kill and the accepted one after it.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { KILN, freePort, startKiln, tempDir } from "./helpers/process";
import { startReceiver, signatureValid } from "./helpers/webhook-receiver";
import { eventually } from "./helpers/node";

const receiver = startReceiver();
afterAll(() => receiver.stop());

test("a delivery survives kill -9 of the panel between attempts", async () => {
  const data = tempDir("kiln-durable-");
  const config = join(data, "kiln.json");
  // The first retry a second and a half after the refusal: the kill comes inside that window.
  writeFileSync(config, JSON.stringify({ webhooks: { retryDelays: [1.5], giveUpAfter: 120 } }));
  const port = await freePort();
  const env = { KILN_DATA: data, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_LOCAL_NODE: "0", KILN_CONFIG: config, KILN_ADMIN_EMAIL: "admin@example.com", KILN_ADMIN_PASSWORD: "a-long-password-1" };
  const base = `http://127.0.0.1:${port}`;
  let kiln = await startKiln([...KILN, "panel"], env, /panel listening on/);
  try {
    const login = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json", origin: base }, body: JSON.stringify({ email: "admin@example.com", password: "a-long-password-1" }) });
    const { session } = (await login.json()) as { session: string };
    const api = (method: string, path: string, body?: unknown) => fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${session}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    const secret = "durable-secret-0123456789";
    const made = await api("POST", "/api/webhooks", { url: receiver.url, events: ["settings.changed"], secret, allowInternal: true });
    expect(made.status).toBe(201);
    receiver.failWith(500);
    expect((await api("POST", "/api/settings", { "panel.settings.companyName": "Durable Co" })).status).toBe(204);
    await eventually(() => receiver.received.length === 1, 5000, "the first attempt");
    kiln.proc.kill("SIGKILL");
    await kiln.proc.exited;

    kiln = await startKiln([...KILN, "panel"], env, /panel listening on/);
    await eventually(() => receiver.received.length === 2, 10_000, "the attempt after the restart");
    // Nothing more comes: the accepted delivery is marked delivered.
    await Bun.sleep(2500);
    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received as [(typeof receiver.received)[0], (typeof receiver.received)[0]];
    expect(second.headers["kiln-delivery"]).toBe(first.headers["kiln-delivery"]!);
    expect(second.body).toBe(first.body);
    expect(signatureValid(secret, second)).toBe(true);
    expect(JSON.parse(second.body)).toMatchObject({ event: "settings.changed", properties: { keys: ["panel.settings.companyName"] } });
    // The queue's depth is a metric: the token's own settings.changed waits a moment, then nothing.
    const again = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json", origin: base }, body: JSON.stringify({ email: "admin@example.com", password: "a-long-password-1" }) });
    const token = "metrics-token-0123456789";
    const put = await fetch(`${base}/api/settings`, { method: "PUT", headers: { authorization: `Bearer ${((await again.json()) as { session: string }).session}`, "content-type": "application/json" }, body: JSON.stringify({ metricsToken: token }) });
    expect(put.status).toBe(204);
    const depth = async () => Number(/^kiln_webhook_queue_depth (\d+)$/m.exec(await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text())?.[1]);
    expect(await depth()).toBeGreaterThanOrEqual(0);
    await eventually(async () => (await depth()) === 0, 5000, "the queue to empty");
  } finally {
    kiln.proc.kill("SIGKILL");
  }
}, 60_000);
