// The id a template file is offered and stored under, one rule for the repository readers (the
// panel) and the template editor's Open file… (the browser): PufferPanel's template names and
// egg file names made into Kiln template ids.
import { TEMPLATE_ID } from "../definition/constants";

/** The Kiln id of a PufferPanel template name: lower case (as PufferPanel stores it), `+` spelled "plus". */
export function templateIdOf(name: string): string | undefined {
  const id = name.toLowerCase().replaceAll("+", "plus").replace(/[^a-z0-9_.-]/g, "-");
  return TEMPLATE_ID.test(id) ? id : undefined;
}

/** An egg's file name: `egg-….json` (or .yaml, .yml), or `…-egg-….json` / `eggs-….json` as older repositories name them. */
export const EGG_FILE = /^(?:[a-z0-9_.-]*-)?eggs?-[A-Za-z0-9_.+-]+\.(?:json|ya?ml)$/i;

/** The name an egg file is offered under: the file name without its egg prefix and `.json`. */
export function eggNameOf(file: string): string {
  return file.replace(/\.(?:json|ya?ml)$/i, "").replace(/^(?:[a-z0-9_.-]*-)?eggs?-/i, "");
}

/**
 * The id to propose for a file opened in the editor: an egg's by its file name as repositories
 * name eggs (else by the egg's own name), anything else by its file name without `.json`.
 */
export function proposedTemplateId(fileName: string, isEgg: boolean, eggName?: unknown): string | undefined {
  if (isEgg) {
    if (EGG_FILE.test(fileName)) return templateIdOf(eggNameOf(fileName));
    if (typeof eggName === "string" && eggName.trim()) return templateIdOf(eggName.trim().replace(/\s+/g, "-"));
  }
  return templateIdOf(fileName.replace(/\.(?:json|ya?ml)$/i, ""));
}
