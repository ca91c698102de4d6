// The add-server form with "Best node" redirects to the new server's page with a token under which
// the panel kept where it put the server and why. The note was kept in the memory of the panel
// process that made the server, so behind a round-robin balancer the page was served by the other
// panel half the time and said nothing. It is now kept in the database. Two real panel processes
// on one PostgreSQL database, a real node.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openDatabase, schema, type Db } from "../../db";
import { freshPostgresDatabase, hasPostgres } from "../helpers/database";
import { echoTemplate, startTestNode, type TestNode } from "../helpers/node";
import { jsonCall, killPanels, PANEL_ADMIN, sessionAt, startPanelProcess, type PanelProcess } from "../helpers/panel-process";

let db: Db;
let a: PanelProcess;
let b: PanelProcess;
let node: TestNode;
let session: string;

describe.if(hasPostgres())("two panels on one PostgreSQL database: where Best node put a server", () => {
  beforeAll(async () => {
    const url = await freshPostgresDatabase();
    db = await openDatabase(url);
    node = await startTestNode();
    await db.insert(schema.nodes).values({ name: "only-node", publicHost: "127.0.0.1", publicPort: node.node.port, privateHost: "127.0.0.1", privatePort: node.node.port, sftpPort: 1, secret: node.config.secret, createdAt: new Date() }).run();
    [a, b] = await Promise.all([startPanelProcess(url), startPanelProcess(url)]);
    session = await sessionAt(a.base);
    expect((await fetch(`${a.base}/api/templates/echo`, jsonCall("PUT", echoTemplate(), session))).ok).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await killPanels([a, b].filter(Boolean));
    await node?.stop();
    await db?.$kiln.close();
  });

  /** Whether the page at `path`, served by `panel`, says where the server went. */
  const saysWhere = async (panel: PanelProcess, path: string) => (await (await fetch(`${panel.base}${path}`, { headers: { cookie: `kiln=${session}`, accept: "text/html" } })).text()).includes('data-testid="placement-notice"');

  test("the page the form sends the browser to says where and why, whichever panel serves it", async () => {
    const form = { template: "echo", name: "placed", node: "auto", environment: "standard", user: PANEL_ADMIN.email, constraints: "" };
    const made = await fetch(`${a.base}/addserver`, { method: "POST", redirect: "manual", headers: { cookie: `kiln=${session}`, origin: a.base, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form) });
    expect(made.status).toBe(303);
    const location = made.headers.get("location")!;
    expect(location).toMatch(/^\/server\/[0-9a-f]{8}\?placed=[\w-]+$/);
    for (const panel of [b, a]) expect([panel.id, await saysWhere(panel, location)]).toEqual([panel.id, true]);
    // Without the token, the page says nothing of it.
    expect(await saysWhere(b, location.split("?")[0]!)).toBe(false);
  });
});
