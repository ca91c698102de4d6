// The server users card's permissions: every flag in four groups, each flag once and with what
// it allows said under it (tied to its switch by aria-describedby), in every card of the tab.
import { expect, test } from "bun:test";
import { panelPerTest, type PanelWithNode } from "./helpers/panel-node";
import { SERVER_FLAGS } from "../core/scopes";
import { SERVER_FLAG_GROUPS } from "../core/scopes/flag-groups";
import en from "../locales/en.json";

let ctx: PanelWithNode;
panelPerTest((fresh) => {
  ctx = fresh;
});

test("the groups hold every flag exactly once, each with words for it and its group", () => {
  const grouped = SERVER_FLAG_GROUPS.flatMap((g) => [...g.flags]);
  expect(grouped.sort()).toEqual([...SERVER_FLAGS].sort());
  const messages = en as Record<string, string>;
  for (const { group, flags } of SERVER_FLAG_GROUPS) {
    expect(messages[`serverUsers.group.${group}`]).toBeDefined();
    for (const flag of flags) expect(messages[`serverUsers.flagHint.${flag}`]).toBeDefined();
  }
});

test("the add card shows the switches in their groups, each described", async () => {
  const id = await ctx.createServer("Groups");
  const res = await ctx.panel.request(`/server/${id}?tab=users`, { token: ctx.admin.token, headers: { accept: "text/html" } });
  expect(res.status).toBe(200);
  const html = await res.text();
  const form = html.slice(html.indexOf('data-testid="add-server-user"'));
  for (const { group, flags } of SERVER_FLAG_GROUPS) {
    const fieldset = new RegExp(`<fieldset class="flag-group" data-flag-group="${group}"><legend class="field-label">([^<]+)</legend>(.*?)</fieldset>`, "s").exec(form);
    expect(fieldset?.[1]).toBe((en as Record<string, string>)[`serverUsers.group.${group}`]);
    for (const flag of flags) {
      const input = new RegExp(`<input type="checkbox"[^>]*name="${flag}"[^>]*>`).exec(fieldset![2]!)![0];
      const hint = /aria-describedby="([^"]+)"/.exec(input)![1];
      expect(fieldset![2]).toContain(`id="${hint}">${(en as Record<string, string>)[`serverUsers.flagHint.${flag}`]!.replaceAll("'", "&#x27;")}</span>`);
    }
  }
  expect(form.match(/<input type="checkbox"[^>]*name="/g)?.length).toBe(SERVER_FLAGS.length);
});
