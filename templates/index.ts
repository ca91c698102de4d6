// The templates Kiln ships, one JSON file each beside this one. They are static imports, so the
// compiled executable carries them; the panel seeds its template table from SHIPPED_TEMPLATES.
// A new template needs its file here and a line in both lists below (templates.test.ts checks).
import { templateSchema, type Template } from "../core/definition";
import minecraftVanilla from "./minecraft-vanilla.json";
import minecraftPaper from "./minecraft-paper.json";
import minecraftPurpur from "./minecraft-purpur.json";
import minecraftFabric from "./minecraft-fabric.json";
import minecraftQuilt from "./minecraft-quilt.json";
import minecraftForge from "./minecraft-forge.json";
import minecraftNeoforge from "./minecraft-neoforge.json";
import minecraftCurseforge from "./minecraft-curseforge.json";
import minecraftSponge from "./minecraft-sponge.json";
import minecraftBedrock from "./minecraft-bedrock.json";
import velocity from "./velocity.json";
import terrariaTshock from "./terraria-tshock.json";
import valheim from "./valheim.json";
import counterStrike2 from "./counter-strike-2.json";
import garrysMod from "./garrys-mod.json";
import teamFortress2 from "./team-fortress-2.json";
import rust from "./rust.json";
import arkSurvivalEvolved from "./ark-survival-evolved.json";
import projectZomboid from "./project-zomboid.json";
import sevenDaysToDie from "./7-days-to-die.json";
import satisfactory from "./satisfactory.json";
import palworld from "./palworld.json";
import factorio from "./factorio.json";
import dontStarveTogether from "./dont-starve-together.json";
import nodejsApp from "./nodejs-app.json";
import pythonApp from "./python-app.json";
import javaApp from "./java-app.json";

/** The files as written, by template name (what the template editor would show). */
export const SHIPPED_TEMPLATE_SOURCES: Readonly<Record<string, unknown>> = {
  "minecraft-vanilla": minecraftVanilla,
  "minecraft-paper": minecraftPaper,
  "minecraft-purpur": minecraftPurpur,
  "minecraft-fabric": minecraftFabric,
  "minecraft-quilt": minecraftQuilt,
  "minecraft-forge": minecraftForge,
  "minecraft-neoforge": minecraftNeoforge,
  "minecraft-curseforge": minecraftCurseforge,
  "minecraft-sponge": minecraftSponge,
  "minecraft-bedrock": minecraftBedrock,
  velocity,
  "terraria-tshock": terrariaTshock,
  valheim,
  "counter-strike-2": counterStrike2,
  "garrys-mod": garrysMod,
  "team-fortress-2": teamFortress2,
  rust,
  "ark-survival-evolved": arkSurvivalEvolved,
  "project-zomboid": projectZomboid,
  "7-days-to-die": sevenDaysToDie,
  satisfactory,
  palworld,
  factorio,
  "dont-starve-together": dontStarveTogether,
  "nodejs-app": nodejsApp,
  "python-app": pythonApp,
  "java-app": javaApp,
};

/** Every shipped template, parsed (defaults filled in), in the order the panel lists them. */
export const SHIPPED_TEMPLATES: readonly Template[] = Object.values(SHIPPED_TEMPLATE_SOURCES).map((source) =>
  templateSchema.parse(source),
);
