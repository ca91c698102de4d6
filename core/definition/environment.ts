// Where a server runs (spec: Environments, Port binding string). Fields Kiln does not know are
// kept as written (PufferPanel's `containerRoot`, `hostConfig`, …), so they round-trip.
import { z } from "zod";
import { DEFAULT_DOCKER_IMAGE, DOCKER_CONVENTIONS, DOCKER_NETWORK_MODES, ENVIRONMENT_TYPES } from "./constants";
import { safeKey } from "./object-keys";

export { ENVIRONMENT_TYPES, DOCKER_NETWORK_MODES, DEFAULT_DOCKER_IMAGE, DEFAULT_BIND_HOST, PORT_PROTOCOLS, parsePortBinding, type EnvironmentType, type PortBinding } from "./constants";

export const environmentSchema = z.discriminatedUnion(
  "type",
  [
    z.looseObject({ type: z.literal("standard") }),
    z.looseObject({ type: z.literal("tty") }),
    z.looseObject({ type: z.literal("host") }),
    z.looseObject({
      type: z.literal("docker"),
      // May name variables ("eclipse-temurin:${javaversion}"): substituted when the container is
      // made, within what ./docker-image allows a user's value to change.
      image: z.string({ error: "expected an image name" }).min(1, { error: "expected an image name" }).default(DEFAULT_DOCKER_IMAGE),
      networkMode: z.enum(DOCKER_NETWORK_MODES, { error: `expected one of ${DOCKER_NETWORK_MODES.join(", ")}` }).default("host"),
      networkName: z.string().default(""),
      bindings: z.record(safeKey, z.string()).default({}),
      portBindings: z.array(z.string(), { error: 'expected a list of port bindings such as "0.0.0.0:25565:25565/tcp"' }).default([]),
      /** Images offered (an egg's docker_images); `image` is the chosen one, and a non-administrator may choose only among these. */
      images: z.array(z.looseObject({ display: z.string().default(""), image: z.string({ error: "expected an image name" }).min(1, { error: "expected an image name" }) }), { error: "expected a list of {display, image} entries" }).optional(),
      /** "egg": the runtime images' conventions (/home/container, STARTUP and the egg environment, the image's own entrypoint). */
      conventions: z.enum(DOCKER_CONVENTIONS, { error: `expected one of ${DOCKER_CONVENTIONS.join(", ")}` }).optional(),
    }),
  ],
  { error: (issue) => (issue.code === "invalid_union" ? `expected an environment type: one of ${ENVIRONMENT_TYPES.join(", ")}` : undefined) },
);

export type Environment = z.infer<typeof environmentSchema>;
export type DockerEnvironment = Extract<Environment, { type: "docker" }>;
