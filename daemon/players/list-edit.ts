// The four list files edited while the server is stopped, as pure steps on their entries: add
// and remove keep every entry's fields, known or not, untouched (a plugin's extra fields, a
// future version's), and only the entry that is added is written by Kiln, in the shape vanilla
// writes (whitelist {uuid, name}; ops plus level and bypassesPlayerLimit; bans plus created,
// source, expires and reason). Adding what is there or removing what is not changes nothing.
import { createHash } from "node:crypto";
import { dashedUuid, isMinecraftUuid } from "../../core/players/minecraft-name";
import type { PlayerEntry, PlayerList } from "../../core/players/player-lists";

export interface Profile { name: string; uuid: string }
type Raw = Record<string, unknown>;

export const BAN_SOURCE = "Kiln";

/** Minecraft's date form in these files: "2024-05-01 12:00:00 +0000". */
export function minecraftDate(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace("T", " ")} +0000`;
}

/** The UUID an offline-mode server gives a name: Java's UUID.nameUUIDFromBytes("OfflinePlayer:" + name). */
export function offlineUuid(name: string): string {
  const bytes = createHash("md5").update(`OfflinePlayer:${name}`).digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x30;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return dashedUuid(bytes.toString("hex"));
}

/** Whether an entry is the one `value` (a name, case-blind; a UUID; or an IP) names. */
export function entryMatches(entry: Raw, list: PlayerList, value: string): boolean {
  if (list === "ip-bans") return entry.ip === value;
  if (isMinecraftUuid(value)) return typeof entry.uuid === "string" && entry.uuid.toLowerCase() === dashedUuid(value);
  return typeof entry.name === "string" && entry.name.toLowerCase() === value.toLowerCase();
}

export function addEntry(entries: readonly Raw[], list: PlayerList, who: Profile | { ip: string }, reason: string, now: Date): { entries: Raw[]; changed: boolean } {
  const key = "ip" in who ? who.ip : who.uuid;
  if (entries.some((entry) => entryMatches(entry, list, key) || ("name" in who && entryMatches(entry, list, who.name)))) return { entries: [...entries], changed: false };
  const ban = { created: minecraftDate(now), source: BAN_SOURCE, expires: "forever", reason: reason || "Banned by an operator." };
  const added: Record<PlayerList, () => Raw> = {
    whitelist: () => ({ ...(who as Profile) }),
    ops: () => ({ ...(who as Profile), level: 4, bypassesPlayerLimit: false }),
    bans: () => ({ ...(who as Profile), ...ban }),
    "ip-bans": () => ({ ip: (who as { ip: string }).ip, ...ban }),
  };
  return { entries: [...entries, added[list]()], changed: true };
}

export function removeEntry(entries: readonly Raw[], list: PlayerList, value: string): { entries: Raw[]; changed: boolean } {
  const kept = entries.filter((entry) => !entryMatches(entry, list, value));
  return { entries: kept, changed: kept.length !== entries.length };
}

/** Far past any field the game writes (a reason Kiln writes is at most 200 characters): a 4 MiB reason is shown cut. */
const MAX_SHOWN_TEXT = 256;
const text = (value: unknown) => (typeof value === "string" ? value.slice(0, MAX_SHOWN_TEXT) : undefined);

/** An entry as the API shows it (only fields of the right type, each text cut to MAX_SHOWN_TEXT; the rest stays in the file). */
export function shownEntry(raw: Raw): PlayerEntry {
  const shown: PlayerEntry = { name: text(raw.name), uuid: text(raw.uuid), ip: text(raw.ip), reason: text(raw.reason), created: text(raw.created), expires: text(raw.expires), source: text(raw.source), level: typeof raw.level === "number" ? raw.level : undefined };
  return Object.fromEntries(Object.entries(shown).filter(([, value]) => value !== undefined)) as PlayerEntry;
}
