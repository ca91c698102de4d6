// Settings are a fixed set of keys, each with its rule; a key the object of rules only inherits
// ("constructor", "toString", "__proto__", "hasOwnProperty") is no setting. Before, such a key was
// taken for one: "toString" stored a row "[object Object]", "__proto__" answered 500. Now each is
// ErrSettingNotConfigured, read or written, by the API and by the form, and nothing is stored.
import { beforeEach, describe, expect, test } from "bun:test";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { refusals } from "../helpers/refusal";

let panel: TestPanel;
let admin: { token: string };
beforeEach(async () => {
  panel = await testPanel();
  admin = await loginAs(panel.db, [SCOPES.admin]);
});

const INHERITED = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "__defineGetter__"];
const snapshot = async () => await panel.db.select().from(schema.settings).all();
const json = (method: string, path: string, body: unknown) =>
  panel.request(path, { method, token: admin.token, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("keys an object inherits are no settings", () => {
  test.each(INHERITED)("%s: written one at a time or in a map, refused and nothing stored", async (key) => {
    const { refused } = refusals(snapshot);
    await refused(() => json("PUT", `/api/settings/${key}`, { value: "x" }), { status: 404, code: "ErrSettingNotConfigured" });
    const map = () => panel.request("/api/settings", { method: "POST", token: admin.token, headers: { "content-type": "application/json" }, body: `{"${key}":"x"}` });
    if (key !== "__proto__") return await refused(map, { status: 404, code: "ErrSettingNotConfigured" });
    // The map's schema leaves "__proto__" out of what it parses: an empty map, no change.
    const before = await snapshot();
    expect((await map()).status).toBe(204);
    expect(await snapshot()).toEqual(before);
  });

  test.each(INHERITED)("%s: read is refused, not answered as a setting", async (key) => {
    const res = await panel.request(`/api/settings/${key}`, { token: admin.token });
    expect({ status: res.status, code: (await res.json()).error?.code }).toEqual({ status: 404, code: "ErrSettingNotConfigured" });
  });
});
