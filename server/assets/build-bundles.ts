// Bundles the browser side: the island loader, the shell runtime, every island as its own lazily
// loaded chunk, and the stylesheet. Used in memory by the dev server and on disk by build.ts.
import { basename, extname, join } from "node:path";
import type { BunPlugin } from "bun";

const ROOT = join(import.meta.dir, "..", "..");

/** Entry names the server refers to; the output files carry a content hash. */
export const ENTRYPOINTS = {
  client: join(ROOT, "islands", "client.ts"),
  shell: join(ROOT, "islands", "shell.ts"),
  css: join(ROOT, "static", "css", "kiln.css"),
} as const;

export type EntryName = keyof typeof ENTRYPOINTS;

export interface Bundle {
  /** file name (no folder) → contents */
  files: Map<string, Blob>;
  /** entry name → file name */
  entries: Record<EntryName, string>;
}

/**
 * The browser runs the islands on Preact's React-compatible build (preact/compat), not React:
 * the islands are written against React's API and rendered on the server by React, but React's
 * 65 KB of gzip script was most of every page with a live widget. Only the browser
 * bundle is redirected; server rendering and the happy-dom tests keep React.
 */
const REACT_ON_PREACT: BunPlugin = {
  name: "react-on-preact",
  setup(build) {
    const targets: Record<string, string> = {
      react: "preact/compat",
      "react-dom": "preact/compat",
      "react-dom/client": "preact/compat/client",
      "react/jsx-runtime": "preact/compat/jsx-runtime",
      "react/jsx-dev-runtime": "preact/compat/jsx-dev-runtime",
    };
    build.onResolve({ filter: /^react(-dom)?(\/(client|jsx-runtime|jsx-dev-runtime))?$/ }, (args) => ({ path: Bun.resolveSync(targets[args.path]!, ROOT) }));
  },
};

export async function buildBundles(): Promise<Bundle> {
  const result = await Bun.build({
    plugins: [REACT_ON_PREACT],
    entrypoints: Object.values(ENTRYPOINTS),
    target: "browser",
    format: "esm",
    splitting: true,
    minify: true,
    naming: { entry: "[name]-[hash].[ext]", chunk: "[name]-[hash].[ext]", asset: "[name]-[hash].[ext]" },
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!result.success) throw new AggregateError(result.logs, "island bundle failed");
  const files = new Map<string, Blob>();
  const entries = {} as Record<EntryName, string>;
  for (const output of result.outputs) {
    const name = output.path.replace(/^\.\//, "");
    files.set(name, output);
    // The stylesheet comes out as an "asset", the scripts as "entry-point"s.
    if (output.kind !== "entry-point" && output.kind !== "asset") continue;
    const entry = (Object.keys(ENTRYPOINTS) as EntryName[]).find((key) => name.startsWith(`${stem(ENTRYPOINTS[key])}-`));
    if (entry) entries[entry] = name;
  }
  for (const key of Object.keys(ENTRYPOINTS) as EntryName[]) {
    if (!entries[key]) throw new Error(`island bundle: no output for entry ${key}`);
  }
  return { files, entries };
}

function stem(path: string): string {
  return basename(path, extname(path));
}
