// The configfile step (an egg's config.files): before a start, values are set in a config file
// by its parser (./config-files). The file is read and written through the jail (a link out or a
// path that climbs is refused by the kernel), written whole through a temporary file and a
// rename (never half-written), charged to the server's disk space. A missing file is made, as
// Wings makes it; a file its parser cannot read is left as it is and the console says why (the
// game may write a form the parser does not know), as Wings logs it and starts the server.
import type { StepOf } from "../../core/definition/steps";
import { eggFacts } from "../../core/definition/egg-facts";
import { KilnError } from "../../core/errors";
import { writeAtomically } from "../files/operations";
import { rewriteConfig, ConfigFormatError, XML_ATTRIBUTE, type Replacement } from "./config-files";
import { resolvePlaceholders, type PlaceholderFacts, type ValueFilter } from "./config-files/placeholders";
import { makeParent, readForEdit } from "./files";
import type { StepContext } from "./types";
import { message, verbatim } from "../../core/live/daemon-message";

/** A config file bigger than this is no config file: the step will not read it into memory. */
export const MAX_CONFIG_BYTES = 8 * 1024 * 1024;

const LINE_BREAK = /[\r\n\u2028\u2029]/;

const noLineBreak: ValueFilter = (value, placeholder) => {
  if (LINE_BREAK.test(value)) throw new Error(`the value of ${placeholder} holds a line break, which this file cannot hold as one value`);
  return value;
};

function placeholderFacts(ctx: StepContext): PlaceholderFacts {
  const values = ctx.values ?? {};
  return { values, facts: ctx.placeholders?.facts ?? eggFacts(values, undefined, ctx.serverId ?? ""), dockerInterface: ctx.placeholders?.dockerInterface ?? "127.0.0.1" };
}

/** The step's replacements with their placeholders resolved for its parser. */
export function resolvedReplacements(step: StepOf<"configfile">, facts: PlaceholderFacts): Replacement[] {
  return step.replace.map((entry): Replacement => {
    const match = resolvePlaceholders(entry.match, facts, noLineBreak);
    const ifValue = entry.ifValue || undefined;
    switch (step.parser) {
      case "file":
      case "ini":
      case "properties":
        // Written on one line: properties escapes a break itself, the others must not get one.
        return { match, ifValue, value: resolvePlaceholders(entry.value, facts, step.parser === "properties" ? undefined : noLineBreak) };
      case "xml": {
        const attribute = XML_ATTRIBUTE.exec(entry.value);
        return attribute ? { match, ifValue, attribute: attribute[1]!, value: resolvePlaceholders(attribute[2]!, facts) } : { match, ifValue, value: resolvePlaceholders(entry.value, facts) };
      }
      default:
        // A "regex:" ifValue's value may use $1; a "$" in a variable's value is only a "$".
        return { match, ifValue, value: resolvePlaceholders(entry.value, facts, ifValue?.startsWith("regex:") ? (value) => value.replaceAll("$", "$$$$") : undefined) };
    }
  });
}

function readOrNew(ctx: StepContext, file: string): { text: string; path: string } {
  try {
    return readForEdit(ctx.jail, file, MAX_CONFIG_BYTES);
  } catch (error) {
    if (!(error instanceof KilnError && error.code === "ErrNotFound")) throw error;
    makeParent(ctx.jail, file);
    return { text: "", path: ctx.jail.normalize(file) };
  }
}

export async function configfile(step: StepOf<"configfile">, ctx: StepContext): Promise<void> {
  const facts = placeholderFacts(ctx);
  // Eggs name files from the server's folder ("/Game/config.cfg"), as Wings reads them; ".." still may not climb.
  const file = resolvePlaceholders(step.file, facts, noLineBreak).replace(/^\/+/, "");
  const replacements = resolvedReplacements(step, facts);
  const { text, path } = readOrNew(ctx, file);
  let rewritten: string;
  try {
    rewritten = rewriteConfig(step.parser, text, replacements);
  } catch (error) {
    if (!(error instanceof ConfigFormatError)) throw error;
    ctx.log(message("daemon.step.configLeft", { file, reason: verbatim(error.message) }));
    return;
  }
  if (rewritten === text) return;
  await writeAtomically(ctx.jail, path, [Buffer.from(rewritten)]);
}
