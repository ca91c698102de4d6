// Which servers have a Players tab and player management: those whose template's type is
// "minecraft-java", the type PufferPanel's templates and Kiln's own give vanilla, Paper, Purpur,
// Spigot, Fabric, Forge and NeoForge. The type is the template's own statement of what runs, so a
// server of another game never gets Minecraft commands typed into its console. (Converted eggs
// are of type "egg": an administrator sets minecraft-java on such a template to manage players.)
import { KilnError } from "../errors";

export const MINECRAFT_JAVA_TYPE = "minecraft-java";

export function managesPlayers(type: string | undefined): boolean {
  return type === MINECRAFT_JAVA_TYPE;
}

/** ErrNotMinecraftJava unless the server is of the type player management is for. */
export function assertManagesPlayers(type: string | undefined): void {
  if (!managesPlayers(type)) throw new KilnError("ErrNotMinecraftJava", { type: type ?? "" });
}
