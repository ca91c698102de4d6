// Where a server runs (environment types, port binding strings). Fields Kiln does not know are
// kept as written (PufferPanel's `containerRoot`, `hostConfig`, …), so they round-trip.
import { z } from "../zod";
import { DEFAULT_DOCKER_IMAGE, DOCKER_CONVENTIONS, DOCKER_NETWORK_MODES, ENVIRONMENT_TYPES } from "./constants";
import { safeKey } from "./object-keys";

export { ENVIRONMENT_TYPES, DOCKER_NETWORK_MODES, DEFAULT_DOCKER_IMAGE, DEFAULT_BIND_HOST, PORT_PROTOCOLS, parsePortBinding, type EnvironmentType, type PortBinding } from "./constants";

const imageName = z.string({ error: "expected an image name" }).check(z.minLength(1, { error: "expected an image name" }));

/**
 * A Docker network's name as the Engine spells one, or "" for the mode's own. Never one of the
 * Engine's modes spelled as a name ("host", "none"; "container:<id>" has a colon), which would give
 * the server the node's network or another container's, nor one of Kiln's ("kiln…": the install
 * network, another server's own network).
 */
const networkName = z.string().check(
  z.refine((name) => name === "" || (/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name) && !/^(host|none|default)$/i.test(name) && !/^kiln/i.test(name)), {
    error: "expected the name of a Docker network (not host, none, nor one of Kiln's)",
  }),
);

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
      image: z._default(imageName, DEFAULT_DOCKER_IMAGE),
      networkMode: z._default(z.enum(DOCKER_NETWORK_MODES, { error: `expected one of ${DOCKER_NETWORK_MODES.join(", ")}` }), "host"),
      networkName: z._default(networkName, ""),
      bindings: z._default(z.record(safeKey, z.string()), {}),
      portBindings: z._default(z.array(z.string(), { error: 'expected a list of port bindings such as "0.0.0.0:25565:25565/tcp"' }), []),
      /** Images offered (an egg's docker_images); `image` is the chosen one, and a non-administrator may choose only among these. */
      images: z.optional(z.array(z.looseObject({ display: z._default(z.string(), ""), image: imageName }), { error: "expected a list of {display, image} entries" })),
      /** "egg": the runtime images' conventions (/home/container, STARTUP and the egg environment, the image's own entrypoint). */
      conventions: z.optional(z.enum(DOCKER_CONVENTIONS, { error: `expected one of ${DOCKER_CONVENTIONS.join(", ")}` })),
    }),
  ],
  { error: (issue) => (issue.code === "invalid_union" ? `expected an environment type: one of ${ENVIRONMENT_TYPES.join(", ")}` : undefined) },
);

export type Environment = z.infer<typeof environmentSchema>;
export type DockerEnvironment = Extract<Environment, { type: "docker" }>;

/**
 * A docker server's network as an administrator set it: its mode, named network and published
 * ports ({} for another environment). A definition rebuilt from another template (a platform
 * switch, a modpack laid on) keeps it: the new template's image, never its network (a server an
 * administrator kept off the host's network does not join it).
 */
export function dockerNetwork(environment: Environment): Partial<Pick<DockerEnvironment, "networkMode" | "networkName" | "portBindings">> {
  return environment.type === "docker" ? { networkMode: environment.networkMode, networkName: environment.networkName, portBindings: environment.portBindings } : {};
}
