// This panel process among the others on the same database: a row of its own, refreshed every
// SEEN_EVERY_MS, so each process knows who else is running (a process that stops refreshing is
// gone after GONE_AFTER_MS, whether it stopped or was killed).
import { processAlive } from "../../../core/process/alive";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { and, eq, gt, lt, ne } from "drizzle-orm";
import { schema, type Db } from "../../../db";
import { clusterNow } from "./clock";

/** This process's name among the panels: host:pid:random. */
export const THIS_PANEL = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

export const SEEN_EVERY_MS = 5_000;
export const GONE_AFTER_MS = 20_000;

export interface PanelInstance {
  id: string;
  stop(): Promise<void>;
}

/** The other panel processes seen within GONE_AFTER_MS. */
export async function otherLiveInstances(db: Db, self: string, at?: number) {
  const now = at ?? (await clusterNow(db));
  return await db.select().from(schema.panelInstances).where(and(ne(schema.panelInstances.id, self), gt(schema.panelInstances.seenAt, now - GONE_AFTER_MS))).all();
}

/** Whether the panel process `id` was seen within GONE_AFTER_MS. */
export async function isLive(db: Db, id: string, at?: number): Promise<boolean> {
  const now = at ?? (await clusterNow(db));
  return (await db.select({ id: schema.panelInstances.id }).from(schema.panelInstances).where(and(eq(schema.panelInstances.id, id), gt(schema.panelInstances.seenAt, now - GONE_AFTER_MS))).get()) !== undefined;
}

/**
 * Panels of this machine whose process is gone (killed, crashed): their rows and leases go now,
 * so a panel restarted after kill -9 neither waits for its own old leases nor sees itself as another panel.
 */
async function forgetDeadSiblings(db: Db): Promise<void> {
  const here = await db.select().from(schema.panelInstances).where(eq(schema.panelInstances.host, hostname())).all();
  for (const sibling of here) {
    if (sibling.id === THIS_PANEL || processAlive(sibling.pid)) continue;
    await db.delete(schema.leases).where(eq(schema.leases.holder, sibling.id)).run();
    await db.delete(schema.panelInstances).where(eq(schema.panelInstances.id, sibling.id)).run();
  }
}

export async function registerInstance(db: Db, options: { localNode: boolean }): Promise<PanelInstance> {
  const id = THIS_PANEL;
  const now = await clusterNow(db);
  await forgetDeadSiblings(db);
  await db.insert(schema.panelInstances).values({ id, host: hostname(), pid: process.pid, localNode: options.localNode, startedAt: now, seenAt: now }).run();
  const seen = async () => {
    const at = await clusterNow(db);
    await db.update(schema.panelInstances).set({ seenAt: at }).where(eq(schema.panelInstances.id, id)).run();
    // Rows of processes long gone (killed, so they never removed their own).
    await db.delete(schema.panelInstances).where(lt(schema.panelInstances.seenAt, at - 10 * GONE_AFTER_MS)).run();
  };
  // A database that does not answer for a moment: the next beat tries again.
  const timer = setInterval(() => void seen().catch(() => {}), SEEN_EVERY_MS);
  timer.unref();
  return {
    id,
    async stop() {
      clearInterval(timer);
      await db.delete(schema.panelInstances).where(eq(schema.panelInstances.id, id)).run();
    },
  };
}
