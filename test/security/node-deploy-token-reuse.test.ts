// Attack: a copy of a node's one-line install used after (or alongside) the operator's own run.
// The line's deployment token opens the node's config, which holds the node's secret, and it went
// on opening it for the whole hour: a line pasted into a team chat or a ticket, kept in a
// provisioning tool's log or a terminal recording, read off a screen share, gave whoever found it
// the secret after the node was installed and running, and two machines racing with one line both
// became the node. The config now goes out once per token (the executable, which holds no
// secret, as often as asked): a copy used later gets nothing, and a copy used first makes the
// operator's own install fail, so the theft shows.
import { beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { tempDir } from "../helpers/process";
import { SCOPES } from "../../core/scopes";
import { createNode, getNodeRow, nodeDeployment } from "../../server/services/nodes";

let panel: TestPanel;
beforeAll(async () => {
  const executable = join(tempDir("kiln-exe-"), "kiln");
  writeFileSync(executable, "#!/bin/sh\necho kiln\n");
  panel = await testPanel({ executable });
});

async function freshNode(name: string): Promise<{ id: number; token: string; secret: string }> {
  const { id } = await createNode(panel.db, { name, publicHost: "games.example.com", publicPort: 8081, privateHost: "10.0.0.4", privatePort: 8081, sftpPort: 5657 });
  const row = await getNodeRow(panel.db, id);
  const token = /kd1\.[A-Za-z0-9_.-]+/.exec(nodeDeployment(row, "https://panel.example").install)![0];
  return { id, token, secret: row.secret };
}

const fetchAs = (token: string, path: string) => panel.request(path, { headers: { authorization: `Bearer ${token}` } });

test("a token that fetched its node's config fetches it no more; the executable stays fetchable", async () => {
  const node = await freshNode("installed");
  // The operator's install: the executable, then the config.
  expect((await fetchAs(node.token, `/api/nodes/${node.id}/kiln`)).status).toBe(200);
  const first = await fetchAs(node.token, `/api/nodes/${node.id}/deployment/config`);
  expect(first.status).toBe(200);
  expect((await first.json()).secret).toBe(node.secret);
  // The same line, found later.
  const again = await fetchAs(node.token, `/api/nodes/${node.id}/deployment/config`);
  expect(again.status).toBe(401);
  const body = await again.text();
  expect(JSON.parse(body).error?.code).toBe("ErrInvalidCredentials");
  expect(body).not.toContain(node.secret);
  expect((await fetchAs(node.token, `/api/nodes/${node.id}/kiln`)).status).toBe(200);
});

test("two machines racing with one line: one gets the config, the others nothing", async () => {
  const node = await freshNode("raced");
  const answers = await Promise.all(Array.from({ length: 5 }, () => fetchAs(node.token, `/api/nodes/${node.id}/deployment/config`)));
  const bodies = await Promise.all(answers.map((a) => a.text()));
  expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401, 401]);
  expect(bodies.filter((b) => b.includes(node.secret)).length).toBe(1);
});

test("control: a new line from the page fetches the config again (an upgrade), and nodes.deploy's own session is not counted", async () => {
  const node = await freshNode("upgraded");
  expect((await fetchAs(node.token, `/api/nodes/${node.id}/deployment/config`)).status).toBe(200);
  const deployer = await loginAs(panel.db, [SCOPES.nodesDeploy]);
  for (let i = 0; i < 2; i++) expect((await panel.request(`/api/nodes/${node.id}/deployment/config`, { token: deployer.token })).status).toBe(200);
  const newer = /kd1\.[A-Za-z0-9_.-]+/.exec(nodeDeployment(await getNodeRow(panel.db, node.id), "https://panel.example").install)![0];
  expect((await fetchAs(newer, `/api/nodes/${node.id}/deployment/config`)).status).toBe(200);
});
