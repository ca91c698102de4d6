// The templates Kiln ships, one JSON file each beside this one. They are static imports, so the
// compiled executable carries them; the panel seeds its template table from SHIPPED_TEMPLATES.
// A new template needs its file here and a line in both lists below (templates.test.ts checks).
import { templateSchema, type Template } from "../core/definition";
import minecraftVanilla from "./minecraft-vanilla.json";
import minecraftFabric from "./minecraft-fabric.json";
import valheim from "./valheim.json";
import nodejsApp from "./nodejs-app.json";
import pythonApp from "./python-app.json";

/** The files as written, by template name (what the template editor would show). */
export const SHIPPED_TEMPLATE_SOURCES: Readonly<Record<string, unknown>> = {
  "minecraft-vanilla": minecraftVanilla,
  "minecraft-fabric": minecraftFabric,
  valheim,
  "nodejs-app": nodejsApp,
  "python-app": pythonApp,
};

/** Every shipped template, parsed (defaults filled in), in the order the panel lists them. */
export const SHIPPED_TEMPLATES: readonly Template[] = Object.values(SHIPPED_TEMPLATE_SOURCES).map((source) =>
  templateSchema.parse(source),
);
