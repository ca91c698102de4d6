// Where a server runs (spec: Environments, Port binding string).
import { z } from "zod";
import { DEFAULT_DOCKER_IMAGE, DOCKER_NETWORK_MODES } from "./constants";
import { safeKey } from "./object-keys";

export { ENVIRONMENT_TYPES, DOCKER_NETWORK_MODES, DEFAULT_DOCKER_IMAGE, DEFAULT_BIND_HOST, PORT_PROTOCOLS, parsePortBinding, type EnvironmentType, type PortBinding } from "./constants";

export const environmentSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("standard") }),
  z.object({ type: z.literal("tty") }),
  z.object({
    type: z.literal("docker"),
    image: z.string().min(1).default(DEFAULT_DOCKER_IMAGE),
    networkMode: z.enum(DOCKER_NETWORK_MODES).default("host"),
    networkName: z.string().default(""),
    bindings: z.record(safeKey, z.string()).default({}),
    portBindings: z.array(z.string()).default([]),
  }),
]);

export type Environment = z.infer<typeof environmentSchema>;
export type DockerEnvironment = Extract<Environment, { type: "docker" }>;
