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
