// The dependency arrows of the layout (docs/architecture.md), checked over every import of every
// file under server/, daemon/, core/, views/, islands/, db/ and locales/; then the checker itself, fed
// planted imports it must report and allowed ones it must not.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { checkArrows, formatViolation, importsOf, readSourceFiles, repositoryRoot, unusedExceptions, type SourceFile } from "./helpers/dependency-arrows";

const files = readSourceFiles(repositoryRoot());

test("every import follows the dependency arrows", () => {
  // The walk found the code base (a wrong root would pass with nothing to check).
  expect(files.length).toBeGreaterThan(500);
  for (const folder of ["server/", "daemon/", "core/", "views/", "islands/", "db/", "locales/"]) expect(files.some((f) => f.path.startsWith(folder))).toBe(true);
  expect(checkArrows(files).map(formatViolation)).toEqual([]);
});

test("every named exception is still needed", () => {
  expect(unusedExceptions(files)).toEqual([]);
});

/** What the checker says of one planted file. */
const check = (path: string, source: string) => checkArrows([{ path, source }]).map((v) => `${v.file} → ${v.specifier}`);

describe("the checker", () => {
  test("a view or island importing a value from server/, daemon/ or db/ is reported, naming file, import and rule", () => {
    const [violation] = checkArrows([{ path: "views/pages/Planted.tsx", source: `import { allows } from "../../server/services/servers/permissions";\nexport const x = allows;` }]);
    expect(violation).toEqual({ file: "views/pages/Planted.tsx", specifier: "../../server/services/servers/permissions", rule: expect.stringContaining("views and islands never import a value from db/, daemon/ or server/") });
    expect(formatViolation(violation!)).toStartWith("views/pages/Planted.tsx → ../../server/services/servers/permissions: ");
    expect(check("islands/Planted.tsx", `import { ServerManager } from "../daemon/servers/manager";`)).toEqual(["islands/Planted.tsx → ../daemon/servers/manager"]);
    expect(check("islands/lib/planted.ts", `import { schema } from "../../db";`)).toEqual(["islands/lib/planted.ts → ../../db"]);
    expect(check("views/Planted.tsx", `import { eq } from "drizzle-orm";`)).toEqual(["views/Planted.tsx → drizzle-orm"]);
  });

  test("every form of a value import counts: default, namespace, side effect, re-export, dynamic import, require", () => {
    const forms = [
      `import Thing from "../../server/x";`,
      `import * as all from "../../server/x";`,
      `import "../../server/x";`,
      `export { thing } from "../../server/x";`,
      `export * from "../../server/x";`,
      `const later = await import("../../server/x");`,
      `const old = require("../../server/x");`,
      `import { type A, b } from "../../server/x";`,
    ];
    for (const form of forms) expect(check("views/pages/Planted.tsx", form), form).toEqual(["views/pages/Planted.tsx → ../../server/x"]);
  });

  test("a view or island may import the types of server-side view models", () => {
    for (const form of [`import type { NodeView } from "../../server/services/nodes";`, `import { type NodeView } from "../../server/services/nodes";`, `export type { NodeView } from "../../server/services/nodes";`]) {
      expect(check("views/pages/Planted.tsx", form), form).toEqual([]);
    }
    expect(importsOf({ path: "views/pages/Planted.tsx", source: `import type { NodeView } from "../../server/services/nodes";` })).toEqual([
      { specifier: "../../server/services/nodes", target: "server/services/nodes", typeOnly: true },
    ]);
  });

  test("an island importing a value from views/ is reported; views may render islands", () => {
    expect(check("islands/VariableGroups.tsx", `import { VariableField } from "../views/components/VariableField";`)).toEqual(["islands/VariableGroups.tsx → ../views/components/VariableField"]);
    expect(check("views/pages/Planted.tsx", `import { Markdown } from "../../islands/lib/Markdown";`)).toEqual([]);
  });

  test("the daemon importing db/ or server/ is reported, a type too; core and npm are fine", () => {
    expect(check("daemon/servers/planted.ts", `import { schema } from "../../db/schema";`)).toEqual(["daemon/servers/planted.ts → ../../db/schema"]);
    expect(check("daemon/planted.ts", `import type { Deps } from "../server/deps";`)).toEqual(["daemon/planted.ts → ../server/deps"]);
    expect(check("daemon/planted.ts", `import { Database } from "bun:sqlite";`)).toEqual(["daemon/planted.ts → bun:sqlite"]);
    expect(check("daemon/planted.ts", `import { KilnError } from "../core/errors";\nimport { Hono } from "hono";\nimport { join } from "node:path";`)).toEqual([]);
  });

  test("core importing anything outside core is reported, a type or the English catalogue too; built-ins and npm packages are fine", () => {
    expect(check("core/errors/planted.ts", `import en from "../../locales/en.json";`)).toEqual(["core/errors/planted.ts → ../../locales/en.json"]);
    expect(check("core/planted.ts", `import type { Db } from "../db";`)).toEqual(["core/planted.ts → ../db"]);
    expect(check("core/live/planted.ts", `import { x } from "../../test/fixtures/x";`)).toEqual(["core/live/planted.ts → ../../test/fixtures/x"]);
    expect(check("core/planted.ts", `import { Database } from "bun:sqlite";`)).toEqual(["core/planted.ts → bun:sqlite"]);
    expect(check("core/cron/planted.ts", `import { createHmac } from "node:crypto";\nimport { z } from "zod/mini";\nimport { parseCron } from "./parse";\nimport { KilnError } from "../errors";`)).toEqual([]);
  });

  test("a route importing drizzle-orm or a db/ value is reported; services may, and a route may name the Db type", () => {
    expect(check("server/routes/planted.ts", `import { eq } from "drizzle-orm";`)).toEqual(["server/routes/planted.ts → drizzle-orm"]);
    expect(check("server/routes/planted.ts", `import { schema } from "../../db";`)).toEqual(["server/routes/planted.ts → ../../db"]);
    expect(check("server/routes/planted.ts", `import type { Db } from "../../db";`)).toEqual([]);
    expect(check("server/services/planted/index.ts", `import { eq } from "drizzle-orm";\nimport { schema } from "../../../db";`)).toEqual([]);
  });

  test("locales/ importing anything but core/ and locales/ is reported (views read it)", () => {
    expect(check("locales/tables.ts", `import { x } from "../server/services/settings";`)).toEqual(["locales/tables.ts → ../server/services/settings"]);
    expect(check("locales/tables.ts", `import { translation } from "./index";\nimport { makeTranslate } from "../core/i18n/translate";`)).toEqual([]);
  });

  test("the panel's code importing a value from islands/ is reported; a type is fine", () => {
    expect(check("server/routes/planted.tsx", `import ServerConsole from "../../islands/ServerConsole";`)).toEqual(["server/routes/planted.tsx → ../../islands/ServerConsole"]);
    expect(check("server/routes/planted.tsx", `import type { StepValue } from "../../islands/definition/convert";`)).toEqual([]);
  });

  test("an island's test may render through the server's island wrapper, and nothing else of views/", () => {
    const source = `const { Island } = await import("../views/components/Island");\nconst { PageContext } = await import("../views/context");`;
    expect(check("islands/Planted.test.tsx", source)).toEqual([]);
    expect(check("islands/Planted.tsx", source)).toHaveLength(2);
    expect(check("islands/Planted.test.tsx", `import { VariableField } from "../views/components/VariableField";`)).toHaveLength(1);
  });

  test("a .ts file with a generic arrow function is read as TypeScript, not JSX", () => {
    expect(check("server/routes/planted.ts", `import { eq } from "drizzle-orm";\nconst f = <T>(x: T) => x;`)).toEqual(["server/routes/planted.ts → drizzle-orm"]);
  });

  test("a file that does not parse is reported, not passed over", () => {
    expect(checkArrows([{ path: "views/Broken.tsx", source: `import { x } from "../server/y";\nexport const = ;` }])).toEqual([
      { file: "views/Broken.tsx", specifier: "(unreadable)", rule: expect.stringContaining("the file must parse to be checked") },
    ]);
  });

  describe("over a planted tree", () => {
    const root = mkdtempSync(join(tmpdir(), "kiln-arrows-"));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const plant = (path: string, source: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), source);
    };

    test("a forbidden import deep in a folder is found, a declaration file and other folders are not read", () => {
      plant("views/pages/server/tabs/Deep.tsx", `import { serverAccess } from "../../../../server/services/servers";\n`);
      plant("views/components/Fine.tsx", `import { formatBytes } from "../../core/units";\n`);
      plant("core/types/assets.d.ts", `declare module "*.sql" {}\n`);
      plant("test/anything.ts", `import { schema } from "../db";\n`);
      for (const folder of ["server", "daemon", "core", "islands", "db", "locales"]) mkdirSync(join(root, folder), { recursive: true });
      const planted: SourceFile[] = readSourceFiles(root);
      expect(planted.map((f) => f.path).sort()).toEqual(["views/components/Fine.tsx", "views/pages/server/tabs/Deep.tsx"]);
      expect(checkArrows(planted).map(formatViolation)).toEqual([
        expect.stringMatching(/^views\/pages\/server\/tabs\/Deep\.tsx → \.\.\/\.\.\/\.\.\/\.\.\/server\/services\/servers: views and islands never import a value/),
      ]);
    });
  });
});
