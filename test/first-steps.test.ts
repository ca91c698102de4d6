// Empty states, as a browser without script gets them: each empty list
// says what that means and offers its first action to those who may take it; someone holding
// nothing yet is told, wherever they are, that an administrator must give them access.
import { beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, HTML, type TestPanel } from "./helpers/app";
import { SCOPES } from "../core/scopes";
import { schema } from "../db";

let panel: TestPanel;
beforeEach(async () => {
  panel = await testPanel();
});

const page = async (path: string, token: string) => {
  const res = await panel.request(path, { token, headers: HTML });
  expect(res.status).toBe(200);
  return res.text();
};

describe("server list", () => {
  test("who may create servers is offered the first one", async () => {
    const creator = await loginAs(panel.db, [SCOPES.serversCreate]);
    const html = await page("/server", creator.token);
    expect(html).toContain("No servers yet. Make one from a template on one of your nodes.");
    expect(html).toMatch(/data-testid="servers-empty">.*<a class="btn btn-primary" href="\/addserver">Add your first server<\/a>/s);
    expect(html).not.toContain('data-testid="no-access-notice"');
    // Nothing to search or sort yet, and one way to add, in the empty state.
    expect(html).not.toContain('data-testid="servers-filter"');
    expect(html.match(/href="\/addserver"/g)).toHaveLength(1);
  });

  test("someone holding nothing is told an administrator must give access, with the email to give, and offered nothing to create", async () => {
    const newcomer = await loginAs(panel.db, []);
    const html = await page("/server", newcomer.token);
    expect(html).toContain("You have no servers yet.");
    expect(html).toContain(`ask one to add you to it, with the email address you signed in with (${newcomer.email}).`);
    expect(html).not.toContain('href="/addserver"');
    // The list says it already: no second note above it.
    expect(html).not.toContain('data-testid="no-access-notice"');
  });

  test("a filter that matches nothing offers to clear it", async () => {
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    const html = await page("/server?q=nothing-like-this", admin.token);
    expect(html).toMatch(/data-testid="servers-empty">.*No server matches these filters\..*<a class="btn" href="\/server">Clear filters<\/a>/s);
    expect(html).not.toContain("Add your first server");
    expect(html).toContain('data-testid="servers-filter"');
  });
});

describe("the note for someone holding nothing", () => {
  test("shows on Account (where they land) for a user with no scope and no server, and for no one else", async () => {
    const newcomer = await loginAs(panel.db, []);
    const html = await page("/account", newcomer.token);
    expect(html).toContain('data-testid="no-access-notice"');
    expect(html).toContain(`with the email address you signed in with (${newcomer.email})`);
    const scoped = await loginAs(panel.db, [SCOPES.templatesView]);
    expect(await page("/account", scoped.token)).not.toContain('data-testid="no-access-notice"');
    // Given a server, they are no longer a newcomer.
    const shared = await loginAs(panel.db, []);
    const node = await panel.db.insert(schema.nodes).values({ name: "n", publicHost: "h", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 1, secret: "s".repeat(32), createdAt: new Date() }).returning().get();
    await panel.db.insert(schema.servers).values({ id: "abcd1234", name: "S", nodeId: node.id, createdAt: new Date() }).run();
    await panel.db.insert(schema.serverUsers).values({ serverId: "abcd1234", userId: shared.userId, flags: ["viewServerConsole"] }).run();
    expect(await page("/account", shared.token)).not.toContain('data-testid="no-access-notice"');
  });
});

describe("template list", () => {
  test("empty: an editor is offered Import and Add template; a viewer is told an administrator adds them", async () => {
    const editor = await loginAs(panel.db, [SCOPES.templatesView, SCOPES.templatesEdit]);
    const html = await page("/template", editor.token);
    expect(html).toMatch(/data-testid="templates-empty">.*No templates yet\. Import some from the library, or add your own\..*href="\/template\?import=1#import"[^>]*>Import<\/a>.*href="\/addtemplate">Add template<\/a>/s);
    // The empty state holds the two actions; the header does not repeat them.
    expect(html.match(/href="\/addtemplate"/g)).toHaveLength(1);
    const viewer = await loginAs(panel.db, [SCOPES.templatesView]);
    const viewed = await page("/template", viewer.token);
    expect(viewed).toContain("No templates yet. An administrator adds them.");
    expect(viewed).not.toContain('href="/addtemplate"');
  });
});

describe("user list", () => {
  test("a search that matches no one offers to clear it, and Add user to who may add", async () => {
    const editor = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
    const html = await page("/user?username=nobody-by-that-name", editor.token);
    expect(html).toMatch(/data-testid="users-empty">.*No users match\..*<a class="btn" href="\/user">Clear search<\/a>.*href="\/adduser">Add user<\/a>/s);
    const viewer = await loginAs(panel.db, [SCOPES.usersView]);
    const viewed = await page("/user?username=nobody-by-that-name", viewer.token);
    expect(viewed).toContain("Clear search");
    expect(viewed).not.toContain('href="/adduser"');
  });
});
