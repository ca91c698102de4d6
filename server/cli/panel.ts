// kiln panel: the composition root of the panel process.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../db";
import type { KilnConfig } from "../config";
import { loadAssets } from "../assets";
import { loadThemes } from "../themes";
import { createApp } from "../app";
import { servePanel } from "../serve";
import { ensureFirstAdmin } from "../services/users";
import { purgeExpiredSessions } from "../services/sessions";
import { LoginThrottle } from "../services/auth/throttle";
import { ChallengeStore } from "../services/passkeys/challenges";
import { startLocalNode } from "../local-node";
import { serveInProcess } from "../daemon-client";
import { ensureLocalNode } from "../services/nodes";
import { startHeartbeat } from "../node-heartbeat";
import { registerGauge, startMetricsCollector } from "../metrics";
import { STARTER_TEMPLATES, seedTemplates } from "../services/templates";
import { SHIPPED_TEMPLATES } from "../../templates";
import { startPruning } from "../services/activity/retention";
import { startClaimRefresh } from "../services/sso/refresh";
import { failStaleTransfers } from "../services/transfers";
import { startLoadSampling } from "../services/placement/load-history";
import { WebhookWorker } from "../services/webhooks/worker";

export async function runPanel(config: KilnConfig): Promise<void> {
  mkdirSync(config.dataDir, { recursive: true });
  const db = openDatabase(join(config.dataDir, "kiln.db"));
  const admin = await ensureFirstAdmin(db, config.firstAdmin);
  if (admin) {
    console.log(`kiln: created the first administrator: ${admin.email} (username ${admin.username})`);
    if (admin.generatedPassword) console.log(`kiln: its password is ${admin.generatedPassword} (shown once; change it on the account page)`);
  }
  const seeded = seedTemplates(db, SHIPPED_TEMPLATES.filter((t) => STARTER_TEMPLATES.includes(t.name)));
  if (seeded) console.log(`kiln: added ${seeded} starter templates (the rest of the library is under Templates → Import)`);
  const assets = await loadAssets();
  const themes = loadThemes(assets.statics);
  const app = createApp({ config, db, assets, themes, throttle: new LoginThrottle(), challenges: new ChallengeStore() });
  const server = servePanel(app, { port: config.port, hostname: config.host });
  setInterval(() => purgeExpiredSessions(db), 60 * 60 * 1000).unref();
  console.log(`kiln: panel listening on http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${server.port}`);
  const node = config.localNode.enabled ? await startLocalNode(config, server.port).catch((error: Error) => {
    // A taken SFTP port or an unreadable host key: one line saying which, then stop.
    console.error(`kiln: the local node could not start: ${error.message} (KILN_SFTP_PORT sets its SFTP port; KILN_LOCAL_NODE=0 runs without it)`);
    process.exit(1);
  }) : null;
  if (node) {
    // The row follows the ports really taken (KILN_SFTP_PORT=0 picks a free one, as tests do).
    ensureLocalNode(db, { privatePort: node.port, sftpPort: node.sftpPort, secret: node.secret });
    serveInProcess(node.url, node.handle);
    console.log(`kiln: local node listening on ${node.url}`);
    console.log(`kiln: SFTP on port ${node.sftpPort} (host key ${node.sftpFingerprint})`);
  }
  startHeartbeat(db);
  void failStaleTransfers(db);
  startLoadSampling(db);
  startMetricsCollector(db);
  const stopPruning = startPruning(db);
  const stopClaimRefresh = startClaimRefresh(db, config.ssoSources);
  const webhooks = new WebhookWorker(db, { panelPort: server.port ?? config.port }, config.webhookRetries);
  webhooks.start();
  registerGauge("kiln_webhook_queue_depth", "Webhook deliveries waiting to be sent.", () => webhooks.queueDepth());
  // The executable starts with the JIT's thresholds raised (build.ts), so the start's run-once code
  // stays in the interpreter. A panel serves pages and consoles for hours: from here on the usual
  // thresholds, as before, which is what its hour-long watch with a console tab open measured.
  Bun.unsafe.setJITPolicy(1);
  const stop = async () => {
    webhooks.stop();
    stopPruning();
    stopClaimRefresh();
    server.stop();
    await node?.stop();
    db.$client.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
