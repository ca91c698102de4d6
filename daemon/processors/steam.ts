// The steamgamedl step: installs or updates a Steam app (a dedicated server) anonymously with
// SteamCMD, which is downloaded once per node into <binaries>/steamcmd. SteamCMD runs on the
// node itself, even for a server whose environment is a container, because it is the node's
// tool; it writes straight into the server's folder.
//
// SteamCMD updates itself in its own folder, and the shared binaries are read-only to servers
// (a server that could change them would run its code in every other server). So each server
// runs its own copy, `.steamcmd` in its folder (as Pterodactyl keeps one per server), made from
// the node's pristine download the first time, by the server's own sandboxed process.
import { join } from "node:path";
import type { StepOf } from "../../core/definition/steps";
import { ensureTool } from "./binaries";
import type { StepContext } from "./types";
import { message } from "../../core/live/daemon-message";

/** The server's own SteamCMD, relative to its folder. */
const SERVER_COPY = ".steamcmd";

export async function steamgamedl(step: StepOf<"steamgamedl">, ctx: StepContext): Promise<void> {
  // Steam app ids are numbers; anything else would be read by SteamCMD as more commands.
  if (!/^\d+$/.test(step.appId)) throw new Error(`not a Steam app id: "${step.appId}"`);
  const dir = join(ctx.binariesDir, "steamcmd");
  const url = `${ctx.sources.steamcmd}/client/installer/steamcmd_linux.tar.gz`;
  await ensureTool({ label: "SteamCMD", url, dir, strip: 0, marker: "steamcmd.sh" }, ctx);
  const copy = await ctx.execute(["sh", "-c", 'test -e "$2/steamcmd.sh" || cp -R "$1" "$2"', "sh", dir, SERVER_COPY], { host: true });
  if (copy.code !== 0) throw new Error(`cannot copy SteamCMD into the server's folder (exit code ${copy.code})`);
  ctx.log(message("daemon.step.steam", { app: String(step.appId) }));
  // A Steam account when the template names one (PufferPanel v3: username, password); each
  // value is one argument, so it cannot add SteamCMD commands of its own. Extra arguments come
  // from the template (beta branches: "-beta", "x"), after the app id as v3 places them.
  const login = step.username ? [step.username, ...(step.password ? [step.password] : [])] : ["anonymous"];
  const argv = [
    join(ctx.jail.root, SERVER_COPY, "steamcmd.sh"),
    "+force_install_dir", ctx.jail.root,
    "+login", ...login,
    "+app_update", step.appId, ...(step.extraArgs ?? []), "validate",
    "+quit",
  ];
  const exit = await ctx.execute(argv, { host: true });
  if (exit.code !== 0) {
    throw new Error(exit.signal ? `SteamCMD was ended by ${exit.signal}` : `SteamCMD exited with code ${exit.code}`);
  }
}
