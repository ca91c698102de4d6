// Switching a server's Minecraft version, its loader's own version, its CurseForge modpack's file
// or its platform (core/mods/change switchRequestSchema): the variable the template names for it
// set to the new version (for a platform, the definition replaced), the install run again (keeping the
// user's files), then the add-ons' files for that version in place of the old, all after a backup
// and with the server stopped in its power queue (no start comes between). Anything failing after
// the backup puts the backup back and the variable as it was. The undo (./switch-undo) restores the
// backup, world included: a world a newer Minecraft has opened does not open in an older one.
import { renameSync, unlinkSync } from "node:fs";
import { KilnError } from "../../core/errors";
import { message } from "../../core/live/daemon-message";
import type { ChangeStatus, SwitchRequest } from "../../core/mods/change";
import { templateSchema, variableValues, withVariableValues, type ServerDefinition } from "../../core/definition";
import { loaderVariable, versionVariable } from "../../core/definition/addons";
import { curseforgePackVariables, takesPackOnto } from "../../core/definition/curseforge-pack";
import { safeGameVersion } from "../../core/mods/versions";
import { switchable, type AddonKind } from "../../core/mods/types";
import { reasonMessage } from "../http/errors";
import type { Jail } from "../files/jail";
import type { ChangeContext } from "./changes";
import { failedStatus } from "./change-status";
import { nameOnDisk } from "./installed";
import { fsPath } from "../files/fs-path";
import { keepsAdministration } from "./keeps-administration";
import { definitionMark } from "./switch-undo";
import { downloadStaged, dropStaged, rememberOrigins, type Staged } from "./staged";

/** The variable the template names for what is switched (for a platform, the new template's Minecraft version), and the catalogue error when it names none. */
const SWITCHED: Record<SwitchRequest["what"], { variable: (definition: ServerDefinition, request: SwitchRequest) => string | null; unavailable: "ErrModSwitchUnavailable" | "ErrModLoaderSwitchUnavailable" | "ErrModPackSwitchUnavailable" | "ErrModPlatformSwitchUnavailable" }> = {
  game: { variable: (definition) => versionVariable(definition.addons), unavailable: "ErrModSwitchUnavailable" },
  loader: { variable: (definition) => loaderVariable(definition.addons), unavailable: "ErrModLoaderSwitchUnavailable" },
  // A pack laid onto a server of another template names its file in the new definition.
  pack: { variable: (definition, request) => curseforgePackVariables((request.definition === undefined ? definition : platformTarget(request)).install)?.fileId ?? null, unavailable: "ErrModPackSwitchUnavailable" },
  platform: { variable: (_definition, request) => versionVariable(platformTarget(request).addons), unavailable: "ErrModPlatformSwitchUnavailable" },
};

/** A platform switch's new definition, read as any definition is; ErrFieldNotBetween on `definition` when it is not one. */
function platformTarget(request: SwitchRequest): ServerDefinition {
  const parsed = templateSchema.safeParse(request.definition);
  if (!parsed.success) throw new KilnError("ErrFieldNotBetween", { field: "definition" });
  return parsed.data;
}

/**
 * A platform switch may change what installs and runs the server, nothing else a manageMods
 * holder could not: the new definition states a platform the server may switch to (core/mods/types
 * switchable; `value` names it), keeps the Minecraft version, the environment, the limits an
 * administrator set and the ports.
 */
function checkPlatformSwitch(definition: ServerDefinition, target: ServerDefinition, request: SwitchRequest): void {
  const [from, to] = [definition.addons?.platform, target.addons?.platform];
  if (!from || !to || to !== request.value || !switchable(from, to)) throw new KilnError("ErrModPlatformSwitchUnavailable");
  const fromVersion = versionVariable(definition.addons);
  if (!fromVersion || variableValues(definition)[fromVersion] !== variableValues(target)[request.variable]) throw new KilnError("ErrFieldNotBetween", { field: "definition" });
  keepsAdministration(definition, target);
}

/**
 * A CurseForge pack laid onto a server of another template: the new definition installs the pack
 * (its curseforge step's file is `variable`, checked above) on a server whose template says it is
 * a mod loader's or vanilla, or of the Minecraft Java type (core takesPackOnto: a pack brings mods;
 * never a server of another game whose files were made to look like one), and keeps the
 * environment, limits and ports.
 */
function checkPackOnto(definition: ServerDefinition, target: ServerDefinition): void {
  if (!takesPackOnto(definition)) throw new KilnError("ErrModPackSwitchUnavailable");
  keepsAdministration(definition, target);
}

/**
 * Refuses a switch the template does not allow: another variable than the one it names for what
 * is switched (a switch is not a way to set any variable and reinstall), a Minecraft version that
 * does not read as one, a pack's file that is not a CurseForge file number, or a value the
 * variable does not take.
 */
export function checkSwitch(definition: ServerDefinition, request: SwitchRequest): void {
  const switched = SWITCHED[request.what];
  if (switched.variable(definition, request) !== request.variable) throw new KilnError(switched.unavailable);
  if (request.what === "platform") return checkPlatformSwitch(definition, platformTarget(request), request);
  if (request.definition !== undefined && request.what !== "pack") throw new KilnError("ErrUnknownField", { field: "definition", accepted: "definition only with what platform or pack" });
  if (request.what === "game" && !safeGameVersion(request.value)) throw new KilnError("ErrFieldNotBetween", { field: "value" });
  if (request.what === "pack" && !/^[1-9][0-9]{0,9}$/.test(request.value)) throw new KilnError("ErrFieldNotBetween", { field: "value" });
  if (request.definition !== undefined) {
    const target = platformTarget(request);
    checkPackOnto(definition, target);
    // The file set in the new definition is the one named.
    if (String(variableValues(target)[request.variable]) !== request.value) throw new KilnError("ErrFieldNotBetween", { field: "value" });
    return;
  }
  withVariableValues(definition, { [request.variable]: request.value });
}

/**
 * A backup; then, with the server stopped, the variable set, the install run (keeping the
 * user's files), the add-ons' new files downloaded and put in place of the old. Anything failing
 * after the backup puts the backup back and the variable as it was: nothing was changed.
 */
export async function runSwitch(ctx: ChangeContext, serverId: string, request: SwitchRequest, status: ChangeStatus, by: string): Promise<void> {
  const server = ctx.deps.manager.get(serverId);
  const jail = server.jail;
  const update = (changes: Partial<ChangeStatus>) => Object.assign(status, changes);
  const previous = variableValues(server.definition)[request.variable];
  const previousDefinition = server.definition;
  const setVersion = (value: unknown) => ctx.deps.manager.update(serverId, withVariableValues(ctx.deps.manager.get(serverId).definition, { [request.variable]: value }));
  // A platform switch (or a pack laid onto another template's server) replaces the whole definition; the others set one variable.
  const replaces = request.definition !== undefined;
  const apply = () => (replaces ? ctx.deps.manager.update(serverId, platformTarget(request)) : setVersion(request.value));
  const revert = () => (replaces ? ctx.deps.manager.update(serverId, previousDefinition) : setVersion(previous));
  const staged: Staged[] = [];
  let changed = false;
  try {
    const backup = await ctx.deps.backup(serverId, by, `before: ${request.note || `Minecraft ${request.value}`}`);
    update({ backup });
    await server.whileStopped(async (install) => {
      update({ step: "install" });
      changed = true;
      apply();
      await install();
      if (!request.folder) return;
      update({ step: "download" });
      await downloadStaged(ctx.deps, jail, request.folder, request.add, staged, status);
      update({ step: "place" });
      placeSwitched(jail, request.folder, request.remove, staged, status);
      await rememberOrigins(ctx.deps, serverId, jail, request.folder, staged);
    });
    // Nothing to put back by name: the backup is the undo.
    // A replaced definition comes back only while the server's is still the one the switch made (./switch-undo).
    const replaced = replaces ? { definition: previousDefinition, made: definitionMark(ctx.deps.manager.get(serverId).definition) } : {};
    ctx.journals.write(serverId, jail, { changeId: status.changeId, note: request.note, folder: "", added: [], saved: [], renamed: [], switched: { backup, variable: request.variable, previous, ...replaced } }, () => undefined);
    update({ state: "done", step: undefined, at: Date.now() });
    const platform = server.definition.addons?.platform ?? "";
    server.console.daemon(
      request.what === "loader" ? message("daemon.addons.loaderSwitched", { platform, version: request.value, backup })
      : request.what === "platform" ? message("daemon.addons.platformSwitched", { platform: request.value, backup })
      : request.what === "pack" ? message("daemon.addons.packSwitched", { file: request.value, backup })
      : message("daemon.addons.switched", { version: request.value, backup }),
    );
  } catch (error) {
    const putBack = !changed || (status.backup !== undefined && (await putBackBackup(ctx, serverId, status.backup, revert)));
    update(failedStatus(error));
    const reason = reasonMessage(error);
    server.console.daemon(putBack ? message("daemon.addons.switchFailed", { reason }) : message("daemon.addons.switchNotPutBack", { reason, backup: status.backup ?? "?" }));
  } finally {
    if (request.folder) dropStaged(jail, request.folder, staged);
  }
}

/** The old add-on files go, the new ones take their names (the backup holds the old ones). */
function placeSwitched(jail: Jail, folder: AddonKind, remove: string[], staged: Staged[], status: ChangeStatus): void {
  for (const name of remove) {
    const onDisk = nameOnDisk(jail, folder, name);
    if (onDisk) jail.inFolder(folder, (path) => unlinkSync(fsPath(`${path}/${onDisk}`)));
    status.removed.push(name);
  }
  for (const file of staged) {
    jail.inFolder(folder, (path) => renameSync(`${path}/${file.temp}`, `${path}/${file.name}`));
    status.added.push(file.name);
  }
}

/** The backup back in place and the variable as it was; false when that failed (logged; the backup stays in the list to restore by hand). */
async function putBackBackup(ctx: ChangeContext, serverId: string, backup: string, resetVariable: () => void): Promise<boolean> {
  try {
    await ctx.deps.restore(serverId, backup);
    resetVariable();
    return true;
  } catch (error) {
    ctx.deps.log(`kiln daemon: putting back backup ${backup} of ${serverId} after a version switch failed: ${(error as Error).message}`);
    return false;
  }
}
