// The steamgamedl step: installs or updates a Steam app (a dedicated server) anonymously with
// SteamCMD, which is downloaded once per node into <binaries>/steamcmd. SteamCMD runs on the
// node itself, even for a server whose environment is a container, because it is the node's
// tool; it writes straight into the server's folder.
import { join } from "node:path";
import type { StepOf } from "../../core/definition/steps";
import { ensureTool } from "./binaries";
import type { StepContext } from "./types";

export async function steamgamedl(step: StepOf<"steamgamedl">, ctx: StepContext): Promise<void> {
  // Steam app ids are numbers; anything else would be read by SteamCMD as more commands.
  if (!/^\d+$/.test(step.appId)) throw new Error(`not a Steam app id: "${step.appId}"`);
  const dir = join(ctx.binariesDir, "steamcmd");
  const url = `${ctx.sources.steamcmd}/client/installer/steamcmd_linux.tar.gz`;
  await ensureTool({ label: "SteamCMD", url, dir, strip: 0, marker: "steamcmd.sh" }, ctx);
  ctx.log(`installing Steam app ${step.appId} with SteamCMD`);
  const argv = [
    join(dir, "steamcmd.sh"),
    "+force_install_dir", ctx.jail.root,
    "+login", "anonymous",
    "+app_update", step.appId, "validate",
    "+quit",
  ];
  const exit = await ctx.execute(argv, { host: true });
  if (exit.code !== 0) {
    throw new Error(exit.signal ? `SteamCMD was ended by ${exit.signal}` : `SteamCMD exited with code ${exit.code}`);
  }
}
