// Where a server runs (spec: Environments, Port binding string).
import { z } from "zod";

export const ENVIRONMENT_TYPES = ["standard", "tty", "docker"] as const;
export type EnvironmentType = (typeof ENVIRONMENT_TYPES)[number];

export const DOCKER_NETWORK_MODES = ["bridge", "host", "overlay", "macvlan", "none"] as const;
/** The image a docker server gets when its template names none. */
export const DEFAULT_DOCKER_IMAGE = "kiln/generic";
export const DEFAULT_BIND_HOST = "{ip}";
export const PORT_PROTOCOLS = ["tcp", "udp"] as const;

export const environmentSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("standard") }),
  z.object({ type: z.literal("tty") }),
  z.object({
    type: z.literal("docker"),
    image: z.string().min(1).default(DEFAULT_DOCKER_IMAGE),
    networkMode: z.enum(DOCKER_NETWORK_MODES).default("host"),
    networkName: z.string().default(""),
    bindings: z.record(z.string(), z.string()).default({}),
    portBindings: z.array(z.string()).default([]),
  }),
]);

export type Environment = z.infer<typeof environmentSchema>;
export type DockerEnvironment = Extract<Environment, { type: "docker" }>;

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
