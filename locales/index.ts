// The shipped message files. Imported statically so they are inside the compiled binary, and so a
// locale name from a request is only ever a key into this table, never part of a file path.
import en from "./en.json";
import de from "./de.json";
import fr from "./fr.json";

export const REFERENCE: Record<string, string> = en;

/** By language ("de") or by exact locale ("pt_BR"); an exact file wins over its language. */
export const TRANSLATIONS: Record<string, Record<string, string>> = { de, fr };
