// The dependency arrows of Kiln's layout as a checker: routes → services → db; views and islands
// never import db, daemon or server values; the daemon never imports db or server; core imports
// only core; islands never import views' values. A pure function over a list of files, so a test
// can feed it a planted import and see it caught (test/architecture.test.ts).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, posix } from "node:path";

export interface SourceFile {
  /** Path from the repository root, with forward slashes: `views/pages/home.tsx`. */
  path: string;
  source: string;
}

export interface ArrowImport {
  specifier: string;
  /** Where it lands: a repository path for a relative import, else the bare specifier. */
  target: string;
  typeOnly: boolean;
}

export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

/** The folders the arrows speak of; `test/`, `bench/`, `scripts/`, `templates/` may import anything. */
export const CHECKED_FOLDERS = ["server", "daemon", "core", "views", "islands", "db", "locales"] as const;

// One transpiler per loader: read as tsx, a .ts file's `<T>(x: T) => …` would be taken for JSX.
const transpilers = { ts: new Bun.Transpiler({ loader: "ts" }), tsx: new Bun.Transpiler({ loader: "tsx" }) };

// The transpiler erases type-only imports (and `import { type A }` lists with no value), so what
// scanImports gives is exactly what runs. Type-only forms are read with a regex over the source:
// `import type … from`, `export type … from`, and `import { type A, type B } from`.
const TYPE_IMPORT = /(?:^|[;\n])\s*(?:import|export)\s+type\s[^;'"]*?from\s*["']([^"']+)["']/g;
const BRACE_IMPORT = /(?:^|[;\n])\s*import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;

export function importsOf(file: SourceFile): ArrowImport[] {
  const transpiler = file.path.endsWith(".tsx") ? transpilers.tsx : transpilers.ts;
  const values = new Set(transpiler.scanImports(file.source).map((entry) => entry.path));
  const types = new Set<string>();
  for (const match of file.source.matchAll(TYPE_IMPORT)) types.add(match[1]!);
  for (const match of file.source.matchAll(BRACE_IMPORT)) {
    const names = match[1]!.split(",").map((name) => name.trim()).filter(Boolean);
    if (names.length > 0 && names.every((name) => name.startsWith("type "))) types.add(match[2]!);
  }
  const result: ArrowImport[] = [];
  for (const specifier of values) result.push({ specifier, target: resolve(file.path, specifier), typeOnly: false });
  for (const specifier of types) {
    if (!values.has(specifier)) result.push({ specifier, target: resolve(file.path, specifier), typeOnly: true });
  }
  return result;
}

function resolve(from: string, specifier: string): string {
  if (!specifier.startsWith(".")) return specifier;
  return posix.normalize(posix.join(posix.dirname(from), specifier));
}

const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);
const isRelative = (specifier: string) => specifier.startsWith(".");
/** drizzle, bun:sqlite and pg (PostgreSQL's driver) are the database as much as `db/` is. */
const isDatabase = (target: string) =>
  within(target, "db") || target === "drizzle-orm" || target.startsWith("drizzle-orm/") || target === "bun:sqlite" || target === "pg";

interface Rule {
  name: string;
  applies: (file: string) => boolean;
  forbids: (imported: ArrowImport) => boolean;
}

export const RULES: Rule[] = [
  {
    name: "views and islands never import a value from db/, daemon/ or server/ (type-only imports of view models are fine)",
    applies: (file) => within(file, "views") || within(file, "islands"),
    forbids: (i) => !i.typeOnly && (isDatabase(i.target) || within(i.target, "daemon") || within(i.target, "server")),
  },
  {
    name: "islands never import a value from views/ (views are server-only; markup both render lives in islands/lib/)",
    applies: (file) => within(file, "islands"),
    forbids: (i) => !i.typeOnly && within(i.target, "views"),
  },
  {
    name: "the daemon never imports db/ or server/, not even a type (it reaches the panel over HTTP)",
    applies: (file) => within(file, "daemon"),
    forbids: (i) => isDatabase(i.target) || within(i.target, "server"),
  },
  {
    name: "core imports only core, not even a type (node: built-ins and npm packages aside; no database)",
    applies: (file) => within(file, "core"),
    forbids: (i) => (isRelative(i.specifier) && !within(i.target, "core")) || isDatabase(i.target),
  },
  {
    // Views, islands' tests and the daemon read the message tables: through them no arrow may
    // reach what those folders must not import themselves.
    name: "locales imports only core and locales",
    applies: (file) => within(file, "locales"),
    forbids: (i) => (isRelative(i.specifier) && !within(i.target, "core") && !within(i.target, "locales")) || isDatabase(i.target),
  },
  {
    name: "routes never import drizzle-orm or a value from db/ (they call services; the Db type to hand a handle on is fine)",
    applies: (file) => within(file, "server/routes"),
    forbids: (i) => !i.typeOnly && isDatabase(i.target),
  },
  {
    name: "the panel's code never imports a value from islands/ (views render islands; what both need lives in core/)",
    applies: (file) => within(file, "server"),
    forbids: (i) => !i.typeOnly && within(i.target, "islands"),
  },
];

/**
 * Imports a rule forbids but the layout allows by name, each with its reason. Kept short: an
 * exception no file needs any more fails test/architecture.test.ts.
 */
export const EXCEPTIONS: { files: RegExp; target: string; why: string }[] = [
  {
    files: /^islands\/.*\.test\.tsx?$/,
    target: "views/components/Island",
    why: "an island's test renders it through the server's own wrapper (the marker, the restricted messages) to check what a page without script shows",
  },
  {
    files: /^islands\/.*\.test\.tsx?$/,
    target: "views/context",
    why: "the page context that wrapper reads",
  },
];

const exempt = (file: string, imported: ArrowImport) =>
  EXCEPTIONS.some((e) => e.files.test(file) && imported.target.replace(/\.tsx?$/, "") === e.target);

export function checkArrows(files: SourceFile[]): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const rules = RULES.filter((rule) => rule.applies(file.path));
    if (rules.length === 0) continue;
    let imports: ArrowImport[];
    try {
      imports = importsOf(file);
    } catch (error) {
      // A file the transpiler cannot read has imports no one can check: that is a finding too.
      violations.push({ file: file.path, specifier: "(unreadable)", rule: `the file must parse to be checked: ${String(error).split("\n")[0]}` });
      continue;
    }
    for (const imported of imports) {
      if (exempt(file.path, imported)) continue;
      for (const rule of rules) {
        if (rule.forbids(imported)) violations.push({ file: file.path, specifier: imported.specifier, rule: rule.name });
      }
    }
  }
  return violations;
}

/** Every .ts/.tsx file under the checked folders of the repository at `root`. */
export function readSourceFiles(root: string, folders: readonly string[] = CHECKED_FOLDERS): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (relative: string) => {
    for (const name of readdirSync(join(root, relative))) {
      if (name === "node_modules") continue;
      const child = posix.join(relative, name);
      if (statSync(join(root, child)).isDirectory()) walk(child);
      else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) files.push({ path: child, source: readFileSync(join(root, child), "utf8") });
    }
  };
  for (const folder of folders) walk(folder);
  return files;
}

/** The exceptions no file uses: each is a rule bent for nothing. */
export function unusedExceptions(files: SourceFile[]): string[] {
  const used = new Set<number>();
  for (const file of files) {
    for (const imported of importsOf(file)) {
      EXCEPTIONS.forEach((e, index) => {
        if (e.files.test(file.path) && imported.target.replace(/\.tsx?$/, "") === e.target) used.add(index);
      });
    }
  }
  return EXCEPTIONS.filter((_, index) => !used.has(index)).map((e) => `${e.files} → ${e.target}`);
}

export const formatViolation = (v: Violation) => `${v.file} → ${v.specifier}: ${v.rule}`;

export const repositoryRoot = () => dirname(dirname(import.meta.dir));
