// The definition format's fixed vocabularies and the port-binding parser, free of zod so that
// browser code (the definition editor) can use them without bundling the schemas.

/** Template ids appear in URLs and file names: the same safe shape as a server id. */
export const TEMPLATE_ID = /^[a-z0-9][a-z0-9_.-]{0,63}$/i;

/**
 * Java versions javadl offers: those older templates name (8, 16, 17) and every current LTS,
 * as PufferPanel v3 templates ask for them (11, 21, 25).
 */
export const JAVA_VERSIONS = [8, 11, 16, 17, 21, 25] as const;

export const STEP_TYPES = [
  "download", "command", "alterfile", "writefile", "move", "mkdir",
  "mojangdl", "forgedl", "spongeforgedl", "fabricdl", "javadl", "steamgamedl",
  // PufferPanel v3's steps.
  "extract", "archive", "sleep", "console", "resolveforgeversion", "resolveneoforgeversion", "neoforgedl", "spongedl", "curseforge", "dockerpull",
  // What eggs need, usable by any template: config files rewritten before a start,
  // an install script run in a container of its own.
  "configfile", "containerscript",
] as const;

/** How a configfile step reads and writes its file (Wings' config parsers). */
export const CONFIG_PARSERS = ["properties", "yaml", "json", "ini", "xml", "file"] as const;
export type ConfigParser = (typeof CONFIG_PARSERS)[number];

/** Docker conventions a template may ask for: "egg" is the Pterodactyl/Pelican runtime images'. */
export const DOCKER_CONVENTIONS = ["egg"] as const;

export const VARIABLE_TYPES = ["string", "boolean", "integer", "option"] as const;

/**
 * `host` is PufferPanel v3's name for a process on the node: it runs on a pseudo-terminal, as v3
 * runs it on Linux (Kiln's tty); `standard` (pipes) and `tty` stay Kiln's own names.
 */
export const ENVIRONMENT_TYPES = ["standard", "tty", "host", "docker"] as const;

/** The console types of `run.stdin` (PufferPanel v3): the process's input, or a network console. */
export const CONSOLE_TYPES = ["stdin", "telnet", "rcon", "rconws"] as const;
export type ConsoleType = (typeof CONSOLE_TYPES)[number];
export type EnvironmentType = (typeof ENVIRONMENT_TYPES)[number];

export const DOCKER_NETWORK_MODES = ["bridge", "host", "overlay", "macvlan", "none"] as const;
/** The image a docker server gets when its template names none. */
export const DEFAULT_DOCKER_IMAGE = "kiln/generic";
export const DEFAULT_BIND_HOST = "{ip}";
export const PORT_PROTOCOLS = ["tcp", "udp"] as const;

export interface PortBinding {
  host: string;
  outside: number;
  inside: number;
  protocol: string;
}

/**
 * Parses "host:outside:inside/protocol", where host and protocol may be left out
 * ("25565", "25565:25565", "0.0.0.0:25565:25565/udp"). Returns null when the string is not one.
 */
export function parsePortBinding(value: string): PortBinding | null {
  const [address = "", protocol = "tcp"] = value.trim().split("/");
  const parts = address.split(":");
  if (parts.length < 1 || parts.length > 3 || !/^[a-z]+$/i.test(protocol)) return null;
  const host = parts.length === 3 ? parts[0]! || DEFAULT_BIND_HOST : DEFAULT_BIND_HOST;
  const ports = parts.slice(-2).map(Number);
  const outside = ports[0]!;
  const inside = ports[ports.length - 1]!;
  if (![outside, inside].every((p) => Number.isInteger(p) && p > 0 && p < 65536)) return null;
  return { host, outside, inside, protocol: protocol.toLowerCase() };
}
