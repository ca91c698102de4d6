// The server users tab's add form without script: an email that is none, or missing,
// is said beside the email field (not above the tabs), with what was sent, the card stays open, and a preset button
// adds the person with the preset's flags.
import { expect, test } from "bun:test";
import { loginAs } from "./helpers/app";
import { panelPerTest, formInit, type PanelWithNode } from "./helpers/panel-node";
import { PERMISSION_PRESETS } from "../core/scopes/presets";

let ctx: PanelWithNode;
panelPerTest((fresh) => {
  ctx = fresh;
});

const post = (path: string, fields: Record<string, string>) => ctx.panel.request(path, { ...formInit(fields), token: ctx.admin.token });

test("a bad email is said at the email field of the add form", async () => {
  const id = await ctx.createServer("Form");
  for (const [email, message] of [["not-an-email", "email is not a valid email"], ["", "You must provide the email of the user you want to add"]] as const) {
    const res = await post(`/server/${id}/users`, { email, startServer: "true" });
    expect(res.status).toBe(400);
    const html = await res.text();
    const form = html.slice(html.indexOf('data-testid="add-server-user"'));
    const input = /<input[^>]*name="email"[^>]*>/.exec(form)![0];
    expect(input).toContain('aria-invalid="true"');
    expect(input).toContain('aria-describedby="server-user-add-email-error"');
    // What was sent comes back, to be corrected: the email and the ticked switch.
    expect(input).toContain(`value="${email}"`);
    expect(/<input[^>]*name="startServer"[^>]*>/.exec(form)![0]).toContain("checked");
    expect(/<input[^>]*name="stopServer"[^>]*>/.exec(form)![0]).not.toContain("checked");
    expect(form).toContain(`id="server-user-add-email-error" role="alert">${message}`);
    expect(html.split(message).length - 1).toBe(1);
    // The add card is open, so the message is seen.
    expect(html).toMatch(/<details class="card user-card" open="">\s*<summary class="user-card-head"><strong>Add a user/);
  }
});

test("a preset button adds the person with its flags", async () => {
  const id = await ctx.createServer("Preset form");
  const friend = await loginAs(ctx.panel.db, []);
  expect((await post(`/server/${id}/users`, { email: friend.email, preset: "viewer" })).status).toBe(303);
  const users = await (await ctx.panel.request(`/api/servers/${id}/user`, { token: ctx.admin.token })).json();
  const entry = users.find((u: { email: string }) => u.email === friend.email);
  for (const flag of PERMISSION_PRESETS.viewer) expect(entry[flag]).toBe(true);
  expect(entry.sendServerConsole).toBe(false);
});
