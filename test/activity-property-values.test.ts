// The activity table says a value Kiln wrote from a fixed set (core/activity/property-values) in
// the reader's language, a catalogue code as its sentence, a prefix as a short mention; anything
// people typed or named, and a value outside its set or an unknown code, stays as recorded.
import { describe, expect, test } from "bun:test";
import { activityPropertyValue } from "../views/components/activity-property-value";
import { PROPERTY_VALUES, VALUE_SETS, type ValueRule } from "../core/activity/property-values";
import { EVENTS, type EventRule } from "../core/activity/events";
import { translatorFor, messagesFor } from "../locales/tables";
import { REFERENCE, TRANSLATION_FILES, translation } from "../locales";

const ar = translatorFor("ar_SA");
const de = translatorFor("de_DE");
const arabic = messagesFor("ar_SA");
const said = (text: string) => ({ text, translated: true });
const recorded = (text: string) => ({ text, translated: false });

describe("a value from a fixed set", () => {
  test("is said in the reader's language", () => {
    expect(activityPropertyValue(de, "user.login", "method", "password")).toEqual(said("Passwort"));
    expect(activityPropertyValue(ar, "user.login", "method", "passkey")).toEqual(said(arabic["activity.value.method.passkey"]!));
    expect(activityPropertyValue(ar, "server.task.run", "how", "triggered")).toEqual(said(arabic["activity.value.how.triggered"]!));
    expect(activityPropertyValue(ar, "server.file.delete", "via", "socket")).toEqual(said(arabic["activity.value.via.socket"]!));
    expect(activityPropertyValue(ar, "server.players.changed", "list", "ip-bans")).toEqual(said(arabic["players.ip-bans.title"]!));
    expect(activityPropertyValue(ar, "server.crashed", "cause", "outOfMemory")).toEqual(said(arabic["daemon.crash.cause.outOfMemory"]!));
    expect(activityPropertyValue(ar, "backup.downloaded", "format", "tar.gz")).toEqual(said(arabic["activity.value.format.targz"]!));
    expect(arabic["activity.value.method.passkey"]).not.toBe(REFERENCE["activity.value.method.passkey"]);
  });

  test("a boolean anywhere, and a query's true/false where the rule says so, is yes or no", () => {
    expect(activityPropertyValue(ar, "server.transfer.started", "keepRunning", true)).toEqual(said(arabic["common.yes"]!));
    expect(activityPropertyValue(ar, "webhook.changed", "enabled", false)).toEqual(said(arabic["common.no"]!));
    expect(activityPropertyValue(ar, "server.file.write", "folder", "true")).toEqual(said(arabic["common.yes"]!));
    expect(arabic["common.yes"]).not.toBe(REFERENCE["common.yes"]);
    // A console command that happens to read "true" is what the user typed.
    expect(activityPropertyValue(ar, "server.console.command", "command", "true")).toEqual(recorded("true"));
  });

  test("outside its set (an old row) it is shown as stored", () => {
    expect(activityPropertyValue(ar, "user.login", "method", "carrier-pigeon")).toEqual(recorded("carrier-pigeon"));
    expect(activityPropertyValue(ar, "server.task.run", "how", "Scheduled")).toEqual(recorded("Scheduled"));
    expect(activityPropertyValue(ar, "user.login", "method", 3)).toEqual(recorded("3"));
  });

  test("what people typed or named stays as recorded, even when it spells a set's word", () => {
    expect(activityPropertyValue(ar, "server.file.read", "path", "password")).toEqual(recorded("password"));
    expect(activityPropertyValue(ar, "server.console.command", "command", "sftp")).toEqual(recorded("sftp"));
    expect(activityPropertyValue(ar, "user.passkey.added", "name", "passkey")).toEqual(recorded("passkey"));
    expect(activityPropertyValue(ar, "server.created", "name", "ErrInvalidCredentials")).toEqual(recorded("ErrInvalidCredentials"));
    expect(activityPropertyValue(ar, "role.created", "scopes", ["admin", "user"])).toEqual(recorded("admin, user"));
  });
});

describe("a catalogue error code", () => {
  test("is its errors.<Code> sentence; the sftp: prefix a translated mention", () => {
    expect(activityPropertyValue(ar, "user.login.failed", "reason", "ErrInvalidCredentials")).toEqual(said(arabic["errors.ErrInvalidCredentials"]!));
    expect(activityPropertyValue(ar, "user.login.failed", "reason", "sftp:ErrInvalidCredentials")).toEqual({ mention: arabic["sftp.title"], ...said(arabic["errors.ErrInvalidCredentials"]!) });
    expect(activityPropertyValue(de, "server.transfer.failed", "error", "ErrTransferFailed")).toEqual(said(messagesFor("de_DE")["errors.ErrTransferFailed"]!));
  });

  test("an unknown code, or one whose sentence needs details the row does not keep, is shown as stored", () => {
    expect(activityPropertyValue(ar, "user.login.failed", "reason", "ErrMadeUp")).toEqual(recorded("ErrMadeUp"));
    expect(activityPropertyValue(ar, "user.login.failed", "reason", "sftp:ErrMadeUp")).toEqual(recorded("sftp:ErrMadeUp"));
    expect(arabic["errors.ErrBackupFailed"]).toContain("{reason}");
    expect(activityPropertyValue(ar, "backup.failed", "reason", "ErrBackupFailed")).toEqual(recorded("ErrBackupFailed"));
    // Even its not-allowed sentence names the field, which a row does not keep.
    expect(activityPropertyValue(ar, "user.login.failed", "reason", "ErrFieldNotBetween")).toEqual(recorded("ErrFieldNotBetween"));
  });
});

test("a backup's by: Kiln's marker is said, the task's or user's name stays as recorded", () => {
  expect(activityPropertyValue(ar, "backup.completed", "by", "task:Nightly")).toEqual({ mention: arabic["activity.value.by.task"], ...recorded("Nightly") });
  expect(activityPropertyValue(ar, "backup.failed", "by", "user:admin@example.com")).toEqual({ mention: arabic["activity.value.by.user"], ...recorded("admin@example.com") });
  expect(activityPropertyValue(ar, "backup.completed", "by", "kiln")).toEqual(recorded("kiln"));
});

test("every value of every set, and every prefix, has a message in every locale", () => {
  const keys = new Set<string>();
  for (const set of Object.values(VALUE_SETS)) for (const value of set.values) keys.add(set.message(value));
  for (const rules of Object.values(PROPERTY_VALUES)) for (const rule of Object.values(rules as Record<string, ValueRule>)) for (const key of Object.values(rule.prefixes ?? {})) keys.add(key);
  expect(keys.size).toBeGreaterThan(30);
  const tables: [string, Record<string, string>][] = [["en", REFERENCE], ...Object.keys(TRANSLATION_FILES).map((name): [string, Record<string, string>] => [name, translation(name)])];
  expect(tables.length).toBe(41);
  const missing = tables.flatMap(([name, table]) => [...keys].filter((key) => !table[key]).map((key) => `${name}: ${key}`));
  expect(missing).toEqual([]);
});

test("every rule names a property its event keeps", () => {
  for (const [event, rules] of Object.entries(PROPERTY_VALUES)) {
    const kept = (EVENTS[event as keyof typeof EVENTS] as EventRule).properties;
    for (const name of Object.keys(rules as object)) expect({ event, name, kept: kept.includes(name) }).toEqual({ event, name, kept: true });
  }
});
