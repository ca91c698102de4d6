// The activity table names an event's properties in the reader's language: the names come from
// the event catalogue (core/activity/events), each with a message activity.property.<name>; a
// value people typed or named stays as recorded (shown by the rule of untrusted labels).
import { beforeEach, expect, test } from "bun:test";
import { testPanel, loginAs, HTML, type TestPanel } from "./helpers/app";
import { recordEvent } from "../server/services/activity/record";
import { PROPERTY_NAMES } from "../views/components/activity-property-name";
import { SCOPES } from "../core/scopes";
import en from "../locales/en.json";

let panel: TestPanel;
beforeEach(async () => {
  panel = await testPanel();
});

const activity = async (token: string, locale?: string) => await (await panel.request("/activity", { token, headers: { ...HTML, ...(locale ? { "accept-language": locale } : {}) } })).text();
/** The property names shown, each with its colon (React separates the two with a comment). */
const details = (html: string) => [...html.matchAll(/<span class="activity-property"><span class="muted">(.*?)<\/span>/g)].map((m) => m[1]!.replace("<!-- -->", ""));

test("every property name in the catalogue has an English message", () => {
  const messages = en as Record<string, string>;
  const missing = [...PROPERTY_NAMES].filter((name) => !messages[`activity.property.${name}`]);
  expect(missing).toEqual([]);
  expect(PROPERTY_NAMES.has("method")).toBe(true);
});

test("property names are translated; named values are kept as recorded", async () => {
  const admin = await loginAs(panel.db, [SCOPES.admin]);
  await recordEvent(panel.db, "user.login", { subject: admin.userId, actor: { type: "user", id: String(admin.userId), name: "admin" }, properties: { method: "password" } });
  await recordEvent(panel.db, "server.file.rename", { serverId: "abcd1234", actor: { type: "user", id: String(admin.userId), name: "admin" }, properties: { from: "a.txt", to: "b.txt" } });
  const english = await activity(admin.token);
  expect(details(english)).toEqual(expect.arrayContaining(["Method:", "From:", "To:"]));
  const german = await activity(admin.token, "de");
  expect(details(german)).toEqual(expect.arrayContaining(["Methode:", "Von:", "Nach:"]));
  expect(details(german)).not.toContain("method:");
  // A value from a fixed set is said in the reader's language (test/activity-property-values);
  // what a user named is what was recorded, in every language.
  expect(german).toContain(">Passwort<");
  expect(german).not.toContain(">password<");
  expect(german).toContain(">a.txt<");
  const arabic = await activity(admin.token, "ar");
  expect(details(arabic)).toEqual(expect.arrayContaining(["الطريقة:"]));
});
