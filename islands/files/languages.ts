// The editor's language by file name. Each language pack is its own chunk, fetched only when a
// file of its kind is opened; anything unknown is plain text.
import type { Extension } from "@codemirror/state";
import { extensionOf } from "../../core/files";

type Loader = () => Promise<Extension>;

const legacy = (load: () => Promise<Parameters<typeof import("@codemirror/language").StreamLanguage.define>[0]>): Loader => async () => {
  const [{ StreamLanguage }, parser] = await Promise.all([import("@codemirror/language"), load()]);
  return StreamLanguage.define(parser);
};

const javascript = (options: { typescript?: boolean; jsx?: boolean } = {}): Loader => async () => (await import("@codemirror/lang-javascript")).javascript(options);
const json: Loader = async () => (await import("@codemirror/lang-json")).json();
const yaml: Loader = async () => (await import("@codemirror/lang-yaml")).yaml();
const xml: Loader = async () => (await import("@codemirror/lang-xml")).xml();
const html: Loader = async () => (await import("@codemirror/lang-html")).html();
const css: Loader = async () => (await import("@codemirror/lang-css")).css();
const python: Loader = async () => (await import("@codemirror/lang-python")).python();
const java: Loader = async () => (await import("@codemirror/lang-java")).java();
const markdown: Loader = async () => (await import("@codemirror/lang-markdown")).markdown();
const properties = legacy(async () => (await import("@codemirror/legacy-modes/mode/properties")).properties);
const toml = legacy(async () => (await import("@codemirror/legacy-modes/mode/toml")).toml);
const shell = legacy(async () => (await import("@codemirror/legacy-modes/mode/shell")).shell);

/** Extension (lower case, with the dot) → language. */
const BY_EXTENSION: Record<string, Loader> = {
  ".js": javascript(),
  ".mjs": javascript(),
  ".cjs": javascript(),
  ".jsx": javascript({ jsx: true }),
  ".ts": javascript({ typescript: true }),
  ".mts": javascript({ typescript: true }),
  ".tsx": javascript({ typescript: true, jsx: true }),
  ".json": json,
  ".json5": json,
  ".mcmeta": json,
  ".yml": yaml,
  ".yaml": yaml,
  ".xml": xml,
  ".html": html,
  ".htm": html,
  ".css": css,
  ".py": python,
  ".java": java,
  ".md": markdown,
  ".properties": properties,
  ".ini": properties,
  ".cfg": properties,
  ".conf": properties,
  ".env": properties,
  ".toml": toml,
  ".sh": shell,
  ".bash": shell,
  ".command": shell,
};

/** Names without an extension that still say what they hold. */
const BY_NAME: Record<string, Loader> = {
  ".env": properties,
  ".bashrc": shell,
  ".profile": shell,
};

/** The language pack's key for `name`, or null for plain text (exported for tests). */
export function languageKey(name: string): string | null {
  const lower = name.toLowerCase();
  if (lower in BY_NAME) return lower;
  const ext = extensionOf(lower);
  return ext in BY_EXTENSION ? ext : null;
}

/** Loads the language for `name`; resolves to null for plain text or when the pack cannot load. */
export async function loadLanguage(name: string): Promise<Extension | null> {
  const key = languageKey(name);
  if (key === null) return null;
  const loader = BY_NAME[key] ?? BY_EXTENSION[key];
  try {
    return loader ? await loader() : null;
  } catch {
    return null; // the pack did not arrive: the file is still editable as plain text
  }
}
