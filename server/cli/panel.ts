// kiln panel: the composition root of the panel process.
import { mkdirSync } from "node:fs";
import { openDatabase } from "../../db";
import type { KilnConfig } from "../config";
import { loadAssets } from "../assets";
import { loadThemes } from "../themes";
import { createApp } from "../app";
import { servePanel } from "../serve";
import { ensureFirstAdmin } from "../services/users";
import { LoginThrottle } from "../services/auth/throttle";
import { ChallengeStore } from "../services/passkeys/challenges";
import { startLocalNode } from "../local-node";
import { startLocalNodeProcess } from "../local-node-process";
import type { LocalNodeAddress } from "../local-node-messages";
import { dropStartPages } from "./start-pages";
import { getSetting, SETTING_KEYS } from "../services/settings";
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
import { pendingDeliveries, WebhookWorker } from "../services/webhooks/worker";
import { otherLiveInstances, registerInstance, type PanelInstance } from "../services/cluster/instance";
import { whileHolding, whileLeased } from "../services/cluster/leases";
import { EXPIRY_PURGE_MS, purgeExpired } from "../services/cluster/expiry-purge";
import { forgetGoneSockets } from "../live-proxy/socket-places";
import type { Db } from "../../db";

export async function runPanel(config: KilnConfig): Promise<void> {
  mkdirSync(config.dataDir, { recursive: true });
  const db = await openDatabase(config.database);
  const instance = await joinPanels(db, config);
  // Run once for the installation, by whichever panel starts first (several panels on one database).
  await whileLeased(db, "start-up", instance.id, async () => {
    const admin = await ensureFirstAdmin(db, config.firstAdmin);
    if (admin) {
      console.log(`kiln: created the first administrator: ${admin.email} (username ${admin.username})`);
      if (admin.generatedPassword) console.log(`kiln: its password is ${admin.generatedPassword} (shown once; change it on the account page)`);
    }
    const seeded = await seedTemplates(db, SHIPPED_TEMPLATES.filter((t) => STARTER_TEMPLATES.includes(t.name)));
    if (seeded) console.log(`kiln: added ${seeded} starter templates (the rest of the library is under Templates → Import)`);
  });
  const assets = await loadAssets();
  const themes = loadThemes(assets.statics);
  const app = createApp({ config, db, assets, themes, throttle: new LoginThrottle().storedIn(db), challenges: new ChallengeStore(db) });
  const server = servePanel(app, { port: config.port, hostname: config.host });
  console.log(`kiln: panel listening on http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${server.port} (panel ${instance.id})`);
  const node = config.localNode.enabled ? await startConfiguredLocalNode(db, config, server.port ?? config.port) : null;
  // Jobs that change shared state run in one panel at a time, under a lease (services/cluster/
  // leases): among them the heartbeat, which asks the nodes, reconciles them (what a crash left
  // half done is finished at once) and keeps what they said in their rows for every panel's pages.
  // Each panel keeps its own load samples and /metrics figures: they describe that process.
  const stops = [
    startLoadSampling(db),
    startMetricsCollector(db),
    whileHolding(db, "nodes", instance.id, () => {
      let holding = true;
      const stopBeating = startHeartbeat(db, undefined, () => holding);
      return () => {
        holding = false;
        stopBeating();
      };
    }),
    whileHolding(db, "expiry-purge", instance.id, () => every(EXPIRY_PURGE_MS, () => purgeExpired(db))),
    whileHolding(db, "transfers-stale", instance.id, () => every(30_000, () => failStaleTransfers(db))),
    whileHolding(db, "socket-sweep", instance.id, () => every(config.socketSweepMs, () => forgetGoneSockets(db))),
    whileHolding(db, "activity-pruning", instance.id, () => startPruning(db)),
    whileHolding(db, "claim-refresh", instance.id, () => startClaimRefresh(db, config.ssoSources)),
    whileHolding(db, "webhooks", instance.id, () => {
      const webhooks = new WebhookWorker(db, { panelPort: server.port ?? config.port }, config.webhookRetries);
      webhooks.start();
      return () => webhooks.stop();
    }),
  ];
  registerGauge("kiln_webhook_queue_depth", "Webhook deliveries waiting to be sent.", () => pendingDeliveries(db));
  // The executable starts with the JIT's thresholds raised (build.ts), so the start's run-once code
  // stays in the interpreter. A panel serves pages and consoles for hours: from here on the usual
  // thresholds, as before, which is what its hour-long watch with a console tab open measured.
  Bun.unsafe.setJITPolicy(1);
  const stop = async () => {
    for (const stopOne of stops) await stopOne();
    server.stop();
    await node?.stop();
    await instance.stop();
    await db.$kiln.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

/**
 * The local node, in this process or in one of its own (config.localNode.ownProcess), registered
 * as the installation's local node at the ports it really took (KILN_SFTP_PORT=0 picks a free
 * one, as tests do). One that cannot start is one line saying why, and the panel stops.
 */
async function startConfiguredLocalNode(db: Db, config: KilnConfig, panelPort: number): Promise<{ stop(): Promise<void> }> {
  const curseforgeKey = () => getSetting(db, SETTING_KEYS.curseforgeKey);
  const record = (node: LocalNodeAddress & { secret: string }) => ensureLocalNode(db, { privatePort: node.port, sftpPort: node.sftpPort, secret: node.secret }).then(() => undefined);
  const register = async (node: LocalNodeAddress & { secret: string }, where: string) => {
    await record(node);
    console.log(`kiln: local node listening on ${node.url} (${where})`);
    console.log(`kiln: SFTP on port ${node.sftpPort} (host key ${node.sftpFingerprint})`);
  };
  try {
    if (config.localNode.ownProcess) {
      // The executable's pages the panel's start touched are handed back before the node's process
      // maps them too: a page two processes map is one neither can hand back (MADV_PAGEOUT leaves
      // shared pages), and both would keep it. The node's start reads back what it needs (about
      // 100 ms more to its start; about 8 MB less held by the pair: docs/benchmarks.md).
      await dropStartPages().catch(() => undefined);
      const node = await startLocalNodeProcess(config, panelPort, curseforgeKey, record);
      await register(node, `process ${node.pid}`);
      return node;
    }
    const node = await startLocalNode(config, panelPort, curseforgeKey);
    await register(node, "in the panel's process");
    serveInProcess(node.url, node);
    return node;
  } catch (error) {
    // A taken SFTP port or an unreadable host key.
    console.error(`kiln: the local node could not start: ${(error as Error).message} (KILN_SFTP_PORT sets its SFTP port; KILN_LOCAL_NODE=0 runs without it)`);
    process.exit(1);
  }
}

/**
 * Registers this process among the panels on the database. The local node belongs to its panel
 * (in the panel's process or a child of it), so it is for a panel that is alone: beside another
 * panel, start-up stops.
 */
async function joinPanels(db: Db, config: KilnConfig): Promise<PanelInstance> {
  const instance = await registerInstance(db, { localNode: config.localNode.enabled });
  const others = await otherLiveInstances(db, instance.id);
  const withNode = others.find((other) => other.localNode);
  if (others.length > 0 && (config.localNode.enabled || withNode)) {
    const other = withNode ?? others[0]!;
    console.error(`kiln: another panel (${other.id}) uses this database${withNode ? " with its local node" : ""}; run every panel with --no-local-node and the nodes as \`kiln daemon\``);
    await instance.stop();
    process.exit(2);
  }
  return instance;
}

/** Calls `work` now and every `ms`; answers the stop. */
function every(ms: number, work: () => Promise<unknown>): () => void {
  const run = () => void work().catch((error: Error) => console.error(`kiln: ${error.message}`));
  run();
  const timer = setInterval(run, ms);
  timer.unref();
  return () => clearInterval(timer);
}
