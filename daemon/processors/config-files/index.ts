// A config file's text rewritten by its parser (Wings' six: properties, yaml, json, ini, xml and
// the plain-text "file"). Pure: text in, text out; the configfile step reads and writes the file.
import type { ConfigParser } from "../../../core/definition/constants";
import { rewriteIni } from "./ini";
import { rewriteProperties } from "./properties";
import { rewriteJson, rewriteYaml } from "./structured";
import { rewriteText } from "./text";
import type { Replacement } from "./types";
import { rewriteXml } from "./xml";

export { ConfigFormatError, type Replacement } from "./types";
export { XML_ATTRIBUTE } from "./xml";

const PARSERS: Record<ConfigParser, (text: string, replacements: readonly Replacement[]) => string> = {
  properties: rewriteProperties,
  yaml: rewriteYaml,
  json: rewriteJson,
  ini: rewriteIni,
  xml: rewriteXml,
  file: rewriteText,
};

export function rewriteConfig(parser: ConfigParser, text: string, replacements: readonly Replacement[]): string {
  return PARSERS[parser](text, replacements);
}
