// Variables in a docker environment's `image` and `portBindings` (PufferPanel v3:
// "eclipse-temurin:${javaversion}", "0.0.0.0:${port}:${port}/tcp"), substituted when the
// container is made. An administrator's template decides the image; a value a user may edit
// (userEdit) can only choose a tag of that image (letters, digits, ".", "_", "-": never another
// repository, registry or digest), and in a port binding only an unprivileged port (1024 and up)
// on the address the template names. Anything else is refused naming the field and the variable.
import { KilnError } from "../errors";
import { parsePortBinding } from "./constants";
import type { DockerEnvironment } from "./environment";
import { referencedNames, substitute, type Values } from "./substitute";
import { ownVariable } from "./variable-value";
import type { ServerDefinition } from "./template";

const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
/** Registry, path and tag as Docker spells them; no spaces, no control characters. */
const IMAGE = /^[A-Za-z0-9][A-Za-z0-9._\/:@-]*$/;
const FIRST_UNPRIVILEGED_PORT = 1024;

type Data = Pick<ServerDefinition, "data">;

function userEditable(definition: Data, text: string): string[] {
  return referencedNames(text).filter((name) => ownVariable(definition.data, name)?.userEdit);
}

/** Where an image's tag starts: after the last ":" that follows the last "/" (a registry's port is before it). */
function tagStart(image: string): number {
  const slash = image.lastIndexOf("/");
  const colon = image.lastIndexOf(":");
  return colon > slash && !image.includes("@") ? colon + 1 : image.length;
}

/** An image name without its tag ("eclipse-temurin:" of "eclipse-temurin:${javaversion}"). */
export function imageRepository(image: string): string {
  return image.slice(0, tagStart(image));
}

/** The image with `values` substituted; see the rules above. `field` names it in refusals. */
export function dockerImage(image: string, definition: Data, values: Values, field = "environment.image"): string {
  const [repository, tag] = [imageRepository(image), image.slice(tagStart(image))];
  const [inRepository] = userEditable(definition, repository);
  if (inRepository) throw new KilnError("ErrUserVariableNotAllowed", { field, variable: inRepository }, `${field}: users may edit the variable ${inRepository}, which may only choose the image's tag`);
  for (const name of userEditable(definition, tag)) {
    if (!TAG.test(String(values[name] ?? ""))) throw new KilnError("ErrUserVariableNotAllowed", { field, variable: name }, `${field}: the value of ${name} is not an image tag (letters, digits, ".", "_", "-")`);
  }
  const result = substitute(image, values);
  if (!IMAGE.test(result)) throw new KilnError("ErrFieldNotEqual", { field1: field, field2: "an image name such as eclipse-temurin:21" }, `${field}: "${result}" is not an image name such as eclipse-temurin:21`);
  return result;
}

/** The port bindings with `values` substituted; see the rules above. */
export function dockerPortBindings(bindings: string[], definition: Data, values: Values): string[] {
  return bindings.map((binding, i) => {
    const field = `environment.portBindings.${i}`;
    const parts = binding.split("/")[0]!.split(":");
    // Only "host:outside:inside" names an address; a user's value may not choose it.
    const [inAddress] = parts.length === 3 ? userEditable(definition, parts[0]!) : [];
    if (inAddress) throw new KilnError("ErrUserVariableNotAllowed", { field, variable: inAddress });
    const result = substitute(binding, values);
    const parsed = parsePortBinding(result);
    if (!parsed) throw new KilnError("ErrFieldNotBetween", { field, min: 1, max: 65535 }, `invalid port binding "${result}"`);
    const [user] = userEditable(definition, binding);
    if (user && parsed.outside < FIRST_UNPRIVILEGED_PORT) throw new KilnError("ErrUserVariableNotAllowed", { field, variable: user });
    return result;
  });
}

/** The docker environment as its container is made: image and port bindings substituted. */
export function substituteDockerEnvironment(env: DockerEnvironment, definition: Data, values: Values): DockerEnvironment {
  return { ...env, image: dockerImage(env.image, definition, values), portBindings: dockerPortBindings(env.portBindings, definition, values) };
}
