// What a template's servers run, stated by the template (`addons: { platform, gameVersion? }`) for
// the mods and plugins browser, where the server's files do not tell it yet (a fresh server before
// its first start). `gameVersion` may name variables (`${version}`); the node fills them in and
// keeps the result only when it reads as a Minecraft version. The files, when they tell, win: they
// are what runs.
import { z } from "../zod";
import { PLATFORMS } from "../mods/types";

export const addonsSchema = z.strictObject({
  platform: z.enum(PLATFORMS, { error: `expected one of ${PLATFORMS.join(", ")}` }),
  gameVersion: z.optional(z.string({ error: "expected a Minecraft version or a text naming a variable such as ${version}" }).check(z.minLength(1), z.maxLength(200))),
});

export type AddonsStatement = z.infer<typeof addonsSchema>;

/**
 * The variable that sets the Minecraft version, when the statement's game version is exactly one
 * variable (`${version}`): a new server from a modpack sets it, a version switch changes it and
 * installs again. null otherwise (a fixed version, or text around the variable).
 */
export function versionVariable(addons: AddonsStatement | undefined): string | null {
  return /^\$\{([A-Za-z0-9_]{1,64})\}$/.exec(addons?.gameVersion ?? "")?.[1] ?? null;
}
