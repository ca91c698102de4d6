// The power actions, once: what each is called on the wire (HTTP path, socket message, form),
// the per-server flag it needs, what the node checks before queueing it, and whether it resolves
// only once the server is ready (its ready marker seen). The node, the socket's rules, the panel's forms and the islands all read this.
import type { ServerFlag } from "../scopes";

export interface PowerActionRule {
  needs: ServerFlag;
  /** The action may run the program or the install steps: the node's requirements (OS, programs) are checked before it is queued. */
  runsProgram: boolean;
  /** The action starts the server and resolves when it is ready, not merely when its process started; a folder over its disk space refuses it. */
  waitsForReady: boolean;
}

export const POWER_ACTIONS = ["start", "stop", "kill", "restart", "install"] as const;
export type PowerAction = (typeof POWER_ACTIONS)[number];

export const POWER_ACTION_RULES = {
  start: { needs: "startServer", runsProgram: true, waitsForReady: true },
  stop: { needs: "stopServer", runsProgram: false, waitsForReady: false },
  kill: { needs: "stopServer", runsProgram: false, waitsForReady: false },
  // A restart both stops and starts; starting is the right the panel has always asked for it.
  restart: { needs: "startServer", runsProgram: true, waitsForReady: true },
  install: { needs: "installServer", runsProgram: true, waitsForReady: false },
} as const satisfies Record<PowerAction, PowerActionRule>;

export function isPowerAction(name: string): name is PowerAction {
  return Object.hasOwn(POWER_ACTION_RULES, name);
}
