// Run by test/security/webhook-rebinding.test.ts inside a mount namespace of its own whose
// /etc/resolv.conf names a resolver this script starts (127.77.0.54): it answers `rebind.test`
// with a public address the first two times it is asked (the check when the endpoint is saved,
// the check before the attempt), then with the loopback (an attacker's name with a TTL of 0).
// An administrator's endpoint (no allowInternal) names it; one event is delivered by a real
// WebhookWorker; a receiver on the loopback counts what reached it. Prints one JSON line:
// { reached, response } (the receiver's count, the delivery's last answer).
//   bun test/helpers/webhook-rebind-probe.ts
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { testPanel, loginAs } from "./app";
import { SCOPES } from "../../core/scopes";
import { startReceiver } from "./webhook-receiver";
import { recordEvent } from "../../server/services/activity/record";
import { SYSTEM } from "../../server/services/activity/actor";
import { WebhookWorker } from "../../server/services/webhooks/worker";
import { startTestResolver } from "./test-resolver";

let asked = 0;

const dns = await startTestResolver("127.77.0.54", (name) => (name.endsWith("rebind.test") ? (asked++ < 2 ? "203.0.113.99" : "127.0.0.1") : null));
const receiver = startReceiver();
const panel = await testPanel();
const admin = await loginAs(panel.db, [SCOPES.admin]);
const created = await panel.request("/api/webhooks", { method: "POST", token: admin.token, headers: { "content-type": "application/json" }, body: JSON.stringify({ url: `http://x.rebind.test:${receiver.port}/hook`, events: ["settings.changed"] }) });
if (created.status !== 201) throw new Error(`endpoint not saved: ${created.status} ${await created.text()}`);
const { id } = (await created.json()) as { id: number };
const worker = new WebhookWorker(panel.db, { panelPort: 1 }, { delaysMs: [60_000], giveUpAfterMs: 3_600_000 });
worker.start();
await recordEvent(panel.db, "settings.changed", { actor: SYSTEM, properties: { keys: ["name"] } });
let delivery: typeof schema.webhookDeliveries.$inferSelect | undefined;
for (let i = 0; i < 300; i++) {
  delivery = await panel.db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.webhookId, id)).get();
  if (delivery?.lastResponse !== null && delivery?.lastResponse !== undefined) break;
  await Bun.sleep(50);
}
worker.stop();
console.log(JSON.stringify({ reached: receiver.received.length, response: delivery?.lastResponse ?? null }));
receiver.stop();
dns.close();
process.exit(0);
