// Attack: a Discord or Slack webhook gets each event as one line a person reads: the event, the
// server, who, and the properties as "key: value; key: value". The values are what people named
// (a file's name, a task's, a console command, a player's), and were written into the line as
// they are: a co-user with the files right names a file "world\n**…** server.file.delete on
// Survival, by admin (path: world)", and the owner's channel shows a second line in Kiln's words
// saying the administrator deleted the world; "world; via: sftp" reads as a property Kiln gave;
// U+202E turns what follows around. The markup escape (Discord's *, @, <…) left all of these.
// Now a value someone named is written as a quoted string, its line breaks, quotes and hidden
// characters escaped (the rule of untrusted labels, core/text/shown-label), and so are the
// server's and the actor's names in the sentence: nothing a user names ends the line or poses as
// another property. The JSON format keeps the values as they are (a program reads them apart).
import { expect, test } from "bun:test";
import { deliveryBody } from "../../server/services/webhooks/payload";
import { matchParams } from "../../server/services/activity/operations";
import { NODE_OPERATIONS } from "../../core/contract/node-operations";
import type { RecordedEvent } from "../../server/services/activity/record";

// What the activity log records for an upload the co-user names (the path's parameters, decoded).
const forged = "world\n**Kiln** server.file.delete on Survival, by admin (path: world)";
const params = matchParams(NODE_OPERATIONS.putFile.path, `/daemon/server/abc/file/${encodeURIComponent(forged)}`)!;

const event = (properties: Record<string, unknown>, actorName = "mallory"): RecordedEvent =>
  ({ id: 1, event: "server.file.write", at: Date.now(), serverId: "abc", actor: { type: "user", id: 2, name: actorName }, ip: null, subject: null, properties }) as unknown as RecordedEvent;

const chatLines = (format: "discord" | "slack", recorded: RecordedEvent, server = "Survival") => {
  const body = JSON.parse(deliveryBody(format, recorded, { server })) as { content?: string; text?: string };
  return (body.content ?? body.text)!;
};

test("a name with a line break stays on the event's one line, in both chat formats", () => {
  expect(params.path).toBe(forged);
  for (const format of ["discord", "slack"] as const) {
    const line = chatLines(format, event({ path: params.path }));
    expect(line.split("\n")).toHaveLength(1);
    expect(line).toContain("\\n");
  }
});

test("a name cannot pose as a property, nor turn the line around", () => {
  const line = chatLines("slack", event({ path: "world; via: sftp", note: "\u202Ensimda yb ,eteled" }));
  // Each value whole inside its quotes: "via" is no property of this line.
  expect(line).toContain('path: "world; via: sftp"');
  expect(line).not.toContain("\u202E");
  expect(line).toContain("\\u202E");
  // A quote in a value does not end it.
  expect(chatLines("slack", event({ path: 'a"; via: "sftp' }))).toContain('path: "a\\"; via: \\"sftp"');
});

test("the server's and the actor's names are shown by the same rule", () => {
  const line = chatLines("slack", event({ size: 3 }, "task\nserver.deleted, by admin"), "Survival\u202E");
  expect(line.split("\n")).toHaveLength(1);
  expect(line).not.toContain("\u202E");
  // Numbers and yes/no are Kiln's own: shown as they are.
  expect(line).toContain("size: 3");
});

test("the JSON format keeps the values as recorded", () => {
  const body = JSON.parse(deliveryBody("json", event({ path: params.path }), { server: "Survival" }));
  expect(body.properties.path).toBe(forged);
});
