// Minecraft Java's player names, checked before a name reaches a server's console or its JSON
// files: 3 to 16 of [A-Za-z0-9_] (what Mojang accepts for an account), or a UUID with or without
// its dashes. Nothing else passes, so no name can carry a space, a line break, a `§` code or a
// command separator into a console, where it would become a second command.
import { KilnError } from "../errors";

const NAME = /^[A-Za-z0-9_]{3,16}$/;
const UUID = /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9a-fA-F]{32})$/;

/** The rule as the refusal shows it. */
export const MINECRAFT_NAME_PATTERN = "3–16 of A–Z a–z 0–9 _, or a UUID";

export function isMinecraftUuid(value: string): boolean {
  return UUID.test(value);
}

export function isMinecraftName(value: unknown): value is string {
  return typeof value === "string" && (NAME.test(value) || UUID.test(value));
}

/** A name by the rule, never a UUID: what an operator or list button may send for a listed name. */
export function isMinecraftPlayerName(value: unknown): value is string {
  return typeof value === "string" && NAME.test(value);
}

/**
 * What `kick` takes as a name, exactly and unquoted: the game's player argument reads a
 * Brigadier unquoted string (0-9 A-Z a-z _ - . +, none a separator on a console line) of 1 to 16
 * characters, so Floodgate's ".Steve" and an offline-mode "ab" are kicked by their own name. It
 * first tries the word as a UUID, and Java's UUID parser takes "1-1-1-1-1" (five hex groups), so
 * such a name would kick whoever has that UUID: refused. So is a name of dots only ("." or ".."):
 * the kick's address carries the name as a path segment, which a URL reads as "here" or "up".
 * Anything else would need quoting.
 */
const KICK_NAME = /^[A-Za-z0-9_.+-]{1,16}$/;
const LOOSE_UUID = /^[0-9a-fA-F]+-[0-9a-fA-F]+-[0-9a-fA-F]+-[0-9a-fA-F]+-[0-9a-fA-F]+$/;
/** The rule as a kick's refusal shows it. */
export const KICK_NAME_PATTERN = "1–16 of A–Z a–z 0–9 _ . + -, or a UUID";

/** A name `kick` takes as that very name (never read as a UUID): what a kick button may send. */
export function isKickPlayerName(value: unknown): value is string {
  return typeof value === "string" && KICK_NAME.test(value) && !LOOSE_UUID.test(value) && !/^\.+$/.test(value);
}

export function isKickName(value: unknown): value is string {
  return isKickPlayerName(value) || (typeof value === "string" && UUID.test(value));
}

/** A kick's target (a name `kick` takes as written, or a UUID), else the refusal naming `field`. */
export function kickName(value: unknown, field = "name"): string {
  if (typeof value !== "string" || value === "") throw new KilnError("ErrFieldRequired", { field });
  if (!isKickName(value)) throw new KilnError("ErrFieldPatternMismatch", { field, pattern: KICK_NAME_PATTERN });
  return value;
}

/** The name when it follows the rule, else ErrFieldPatternMismatch naming `field`. */
export function minecraftName(value: unknown, field = "name"): string {
  if (typeof value !== "string" || value === "") throw new KilnError("ErrFieldRequired", { field });
  if (!isMinecraftName(value)) throw new KilnError("ErrFieldPatternMismatch", { field, pattern: MINECRAFT_NAME_PATTERN });
  return value;
}

/** A UUID in the dashed form the JSON files use (32 hex digits gain their dashes), lower case. */
export function dashedUuid(value: string): string {
  const hex = value.replace(/-/g, "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
