// Attack: a chat webhook's line reads "<event> on <server>, by <actor> (<properties>)". The
// properties are quoted values now, but the server's and the actor's names went into the sentence
// bare: a co-user with editServerData renames the server "Survival, by admin" (a server name may
// hold commas and spaces), and every line of the owner's channel reads "server.file.delete on
// Survival, by admin, by mallory": the administrator posed as who did it. A task's or a client's
// name (an actor someone named) did the same. A name someone chose is now quoted as a property's
// value is; Kiln's own words for an actor (system, a node) stay bare.
import { expect, test } from "bun:test";
import { deliveryBody } from "../../server/services/webhooks/payload";
import type { RecordedEvent } from "../../server/services/activity/record";

const event = (actor: RecordedEvent["actor"]): RecordedEvent =>
  ({ id: 1, event: "server.file.delete", at: Date.now(), serverId: "abc", actor, ip: null, subject: null, properties: { path: "world" } }) as unknown as RecordedEvent;

const line = (format: "discord" | "slack", recorded: RecordedEvent, server: string | null) => {
  const body = JSON.parse(deliveryBody(format, recorded, { server })) as { content?: string; text?: string };
  return (body.content ?? body.text)!;
};

test("a server named 'Survival, by admin' does not pose as the actor", () => {
  const text = line("slack", event({ type: "user", id: "2", name: "mallory" }), "Survival, by admin");
  expect(text).not.toContain("Survival, by admin, by");
  expect(text).toContain('on "Survival, by admin", by "mallory"');
});

test("an actor someone named is one quoted value, on a server's line and the panel's", () => {
  const forged = event({ type: "task", id: "7", name: "nightly, by admin" });
  expect(line("slack", forged, "Survival")).toContain('by "nightly, by admin" (path: "world")');
  expect(line("slack", forged, null)).toContain('by "nightly, by admin" (path: "world")');
});

test("Kiln's own word for an actor stays as it is", () => {
  const text = line("slack", event({ type: "system", id: null, name: null }), "Survival");
  expect(text).not.toMatch(/by "/);
});
