// The node reads or takes one modpack at a time per server (daemon/mods/changes: an upload writes
// up to 256 MB beside the folder, a read unpacks and hashes a whole pack), and an upload lasts as
// long as its sender takes: a co-user with manageMods (the Operator preset) sent a pack a byte at a
// time and the owner's and administrators' uploads and plans of a pack were 429 for as long as he
// liked. Now the node keeps one such place of each server for the calls the panel marks as its
// owner's or an administrator's (core/contract's keptForOwners, OWNERS_CALL_HEADER), apart from
// the one its co-users share.
import { beforeAll, expect, test } from "bun:test";
import type { PanelWithNode } from "../helpers/panel-node";
import { fabricFolder, modrinthPanelForFile } from "../helpers/mods";
import { loginAs } from "../helpers/app";

const { modrinth, ctx: panel } = await modrinthPanelForFile();
let ctx: PanelWithNode;
let id: string;
let owner: { token: string; email: string };

beforeAll(async () => {
  ctx = panel();
  // A plain account (not an administrator) owns the server: its first user.
  owner = await loginAs(ctx.panel.db, []);
  id = await ctx.createServer("kept-pack", { user: owner.email });
  fabricFolder(ctx.node.folder(id), "1.20.4");
});

/** A body that sends a byte every 200 ms until it is cancelled. */
function trickle(): { body: ReadableStream<Uint8Array>; stop(): void } {
  let timer: ReturnType<typeof setInterval> | undefined;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      timer = setInterval(() => c.enqueue(new Uint8Array([0x50])), 200);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return {
    body,
    stop() {
      clearInterval(timer);
      try {
        controller?.error(new Error("stopped"));
      } catch {
        // already ended
      }
    },
  };
}

const upload = (token: string, body: BodyInit) => ctx.panel.request(`/api/servers/${id}/modpacks/uploads`, { method: "POST", token, body });

test("a co-user sending a pack a byte at a time leaves the owner and administrators theirs", async () => {
  const made = await modrinth.addModpack({ slug: "kept", title: "kept", gameVersion: "1.20.4", loader: ["fabric-loader", "0.15.11"], mods: [] });
  const pack = modrinth.jar(made.versionId);
  const coUser = await ctx.userWith(id, { manageMods: true });
  const other = await ctx.userWith(id, { manageMods: true });
  const slow = trickle();
  const held = upload(coUser.token, slow.body);
  try {
    await Bun.sleep(1_000);
    // Co-users share one place: the second is refused while the first trickles.
    const refused = await upload(other.token, pack);
    expect({ status: refused.status, code: (await refused.json()).error?.code }).toEqual({ status: 429, code: "ErrTooManyRequests" });
    // The owner uploads and plans a pack; so does an administrator.
    const mine = await upload(owner.token, pack);
    expect(mine.status).toBe(201);
    const stored = await mine.json();
    const plan = await ctx.panel.request(`/api/servers/${id}/modpacks/plan`, { method: "POST", token: owner.token, headers: { "content-type": "application/json" }, body: JSON.stringify({ upload: stored.upload, sha512: stored.sha512 }) });
    expect(plan.status).toBe(200);
    expect((await upload(ctx.admin.token, pack)).status).toBe(201);
  } finally {
    slow.stop();
    await held.catch(() => undefined);
  }
}, 60_000);
