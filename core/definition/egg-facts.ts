// What the egg world knows of a server and Kiln holds elsewhere: the primary port and address
// (Kiln's "port" and "ip" variables, PufferPanel's convention), the memory limit, the server's
// id. The docker environment's "egg" conventions export them (SERVER_PORT, SERVER_IP,
// SERVER_MEMORY, P_SERVER_UUID…) and configfile steps write them for {{server.build.…}}.
import { limitOf } from "./limit-values";
import type { ResourceLimits } from "./limit-values";
import type { Values } from "./substitute";

export interface EggFacts {
  port: string;
  ip: string;
  /** MiB; "0" is no limit, as Pterodactyl and Pelican pass it. */
  memory: string;
  uuid: string;
}

/** An address that means "every address of the node" (Kiln's {ip}, an empty value) is 0.0.0.0, as eggs expect it. */
function bindAddress(value: unknown): string {
  const text = value === undefined ? "" : String(value).trim();
  return text === "" || text === "{ip}" ? "0.0.0.0" : text;
}

export function eggFacts(values: Values, limits: ResourceLimits | undefined, serverId: string): EggFacts {
  const memory = limitOf(limits, "memoryMiB");
  return {
    port: String(values.port ?? values.SERVER_PORT ?? ""),
    ip: bindAddress(values.ip ?? values.SERVER_IP),
    memory: String(memory ?? values.SERVER_MEMORY ?? 0),
    uuid: serverId,
  };
}

/** The node's time zone, as the egg images read it from TZ. */
export function nodeTimezone(): string {
  return process.env.TZ || Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/**
 * The environment the egg images and install scripts expect beside the variables: TZ and the
 * SERVER_ and P_SERVER_ values. Set last, so a variable of the same name cannot change them (as
 * Wings sets them).
 */
export function eggEnvironment(facts: EggFacts): Record<string, string> {
  return {
    TZ: nodeTimezone(),
    SERVER_MEMORY: facts.memory,
    SERVER_IP: facts.ip,
    SERVER_PORT: facts.port,
    P_SERVER_UUID: facts.uuid,
    // Pterodactyl's location is a panel grouping of nodes, which Kiln does not have.
    P_SERVER_LOCATION: "",
  };
}
