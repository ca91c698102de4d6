// A token asked for while its client is being deleted: the token endpoint checked the secret (a
// password hash's time), and wrote the token after; a deletion landing in between (the owner
// revoking a leaked secret, a manager, the server's deletion) made the write break the database's
// foreign key, answered as a 500. The client's existence is now checked again in the transaction
// that writes the token: the answer is 401 invalid_client, and no token of the deleted client is
// left. Attacked by minting with good credentials while the owner deletes the client, many times.
import { beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";

let panel: TestPanel;
let owner: Awaited<ReturnType<typeof loginAs>>;

beforeAll(async () => {
  // Each attempt from its own address: the refusals before must not slow the next one's check past the deletion.
  panel = await testPanel({ trustProxy: true });
  owner = await loginAs(panel.db, []); // password "password123"
});

async function makeClient(): Promise<{ id: string; secret: string }> {
  const res = await panel.request("/api/self/oauth2", { token: owner.token, ...jsonInit("POST", { name: "bot", description: "", password: "password123" }) });
  expect(res.status).toBe(200);
  return await res.json();
}

let address = 0;
const mint = (client: { id: string; secret: string }) =>
  panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": `192.0.2.${++address}` }, body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.id, client_secret: client.secret }).toString() });

test("a mint racing its client's deletion answers 401 invalid_client, never a 500, and leaves no token", async () => {
  const answers: number[] = [];
  for (const delay of [0, 5, 10, 20, 30, 50]) {
    const client = await makeClient();
    const minting = mint(client);
    await Bun.sleep(delay);
    expect((await panel.request(`/api/self/oauth2/${client.id}`, { token: owner.token, method: "DELETE" })).status).toBe(204);
    const res = await minting;
    answers.push(res.status);
    if (res.status === 200) {
      // Made before the deletion: the deletion ended it.
      expect((await panel.request("/api/self", { headers: { authorization: `Bearer ${(await res.json()).access_token}` } })).status).toBe(401);
    } else {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "invalid_client" });
    }
    expect(await panel.db.select().from(schema.sessions).where(eq(schema.sessions.clientId, client.id)).all()).toEqual([]);
  }
  // Some deletion landed while the secret was being checked (the attack), not only before or after it.
  expect(answers).toContain(401);
});

test("control: a client that stays gets a working token", async () => {
  const client = await makeClient();
  const res = await mint(client);
  expect(res.status).toBe(200);
  expect((await panel.request("/api/self", { headers: { authorization: `Bearer ${(await res.json()).access_token}` } })).status).toBe(200);
});
