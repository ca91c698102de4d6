// Permission presets for the server users form: named sets of per-server flags that a
// grantor applies in one step instead of ticking each switch. Defined here, once, for the form,
// its no-script submit and the tests.
//
//   Viewer    watches the server: console, CPU and memory, files (view and download).
//   Operator  runs it day to day: the viewer's flags, plus console commands, start/restart,
//             stop/kill, editing and uploading files, SFTP, and a Minecraft server's players
//             (whitelist, operators, bans, kicks: what its console commands could do anyway).
//   Co-owner  everything but deleting the server, including install, settings and who else has
//             access (flags added later, e.g. backups, fall in here by default).
//
// A preset only says which switches are on: whoever applies it still gives or takes away only
// flags they hold themselves (the form disables a preset they cannot apply in full, and the
// server refuses the rest anyway, see grantableFlags).
import { KilnError } from "../errors";
import { SERVER_FLAGS, type ServerFlag } from "./index";

const VIEWER: readonly ServerFlag[] = ["viewServerConsole", "viewServerStats", "viewServerFiles"];
const OPERATOR: readonly ServerFlag[] = [...VIEWER, "sendServerConsole", "startServer", "stopServer", "putServerFiles", "sftpServer", "managePlayers", "manageMods"];
const CO_OWNER: readonly ServerFlag[] = SERVER_FLAGS.filter((flag) => flag !== "deleteServer");

export const PERMISSION_PRESETS = { viewer: VIEWER, operator: OPERATOR, coOwner: CO_OWNER } as const;

export type PermissionPreset = keyof typeof PERMISSION_PRESETS;
export const PRESET_NAMES = Object.keys(PERMISSION_PRESETS) as PermissionPreset[];

/**
 * Whether `grantor` (the flags they may change) can apply the preset to someone holding
 * `current`: every flag the preset would switch on or off must be one the grantor holds.
 */
export function presetApplicable(preset: PermissionPreset, current: ReadonlySet<ServerFlag>, grantor: Readonly<Record<ServerFlag, boolean>>): boolean {
  const wanted = new Set(PERMISSION_PRESETS[preset]);
  return SERVER_FLAGS.every((flag) => wanted.has(flag) === current.has(flag) || grantor[flag]);
}

/**
 * A submitted form body with its flags replaced by the named preset's (every flag present, true
 * or false), when it names one in `preset`; the body as it was otherwise. An unknown preset name
 * is refused, naming the ones there are.
 */
export function withPreset(body: Record<string, unknown>): Record<string, unknown> {
  if (body.preset === undefined || body.preset === "") return body;
  const preset = body.preset;
  if (typeof preset !== "string" || !Object.hasOwn(PERMISSION_PRESETS, preset)) throw new KilnError("ErrUnknownField", { field: "preset", accepted: PRESET_NAMES });
  const { preset: _named, ...rest } = body;
  const wanted = new Set<ServerFlag>(PERMISSION_PRESETS[preset as PermissionPreset]);
  return { ...rest, ...Object.fromEntries(SERVER_FLAGS.map((flag) => [flag, wanted.has(flag)])) };
}
