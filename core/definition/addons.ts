// What a template's servers run, stated by the template (`addons: { platform, gameVersion?,
// loaderVersion? }`) for the mods and plugins browser, where the server's files do not tell it yet
// (a fresh server before its first start). `gameVersion` may name variables (`${version}`); the
// node fills them in and keeps the result only when it reads as a Minecraft version. The files,
// when they tell, win: they are what runs. `loaderVersion` names the variable that pins the
// loader's own version (a Paper build, a Fabric loader release), which the Mods tab can switch.
import { z } from "../zod";
import { PLATFORMS } from "../mods/types";

const variableText = (what: string) => z.optional(z.string({ error: `expected ${what} or a text naming a variable such as \${version}` }).check(z.minLength(1), z.maxLength(200)));

export const addonsSchema = z.strictObject({
  platform: z.enum(PLATFORMS, { error: `expected one of ${PLATFORMS.join(", ")}` }),
  gameVersion: variableText("a Minecraft version"),
  loaderVersion: variableText("a loader version"),
});

export type AddonsStatement = z.infer<typeof addonsSchema>;

/** The variable a statement's text is exactly (`${version}`), or null (a fixed value, or text around the variable). */
function onlyVariable(text: string | undefined): string | null {
  return /^\$\{([A-Za-z0-9_]{1,64})\}$/.exec(text ?? "")?.[1] ?? null;
}

/**
 * The variable that sets the Minecraft version, when the statement's game version is exactly one
 * variable (`${version}`): a new server from a modpack sets it, a version switch changes it and
 * installs again. null otherwise.
 */
export function versionVariable(addons: AddonsStatement | undefined): string | null {
  return onlyVariable(addons?.gameVersion);
}

/** The variable that sets the loader's own version (`${build}`), which a loader switch changes and installs again; null when none is named. */
export function loaderVariable(addons: AddonsStatement | undefined): string | null {
  return onlyVariable(addons?.loaderVersion);
}
