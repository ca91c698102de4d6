// What a definition a manageMods holder brings about (a platform switch, a modpack laid onto
// another template, the undo of either) keeps of the administrator's choices: the environment type
// and its docker network, the limits, and the ports (the allocations'), with the address.
import { KilnError } from "../../core/errors";
import { dockerNetwork, type ServerDefinition } from "../../core/definition";
import { keepsPorts } from "../../core/definition/server-ports";

/** ErrFieldNotBetween on `definition` when `target` changes any of them from `definition`. */
export function keepsAdministration(definition: ServerDefinition, target: ServerDefinition): void {
  const environment = (d: ServerDefinition) => JSON.stringify([d.environment.type, dockerNetwork(d.environment)]);
  if (environment(definition) !== environment(target) || JSON.stringify(definition.limits ?? null) !== JSON.stringify(target.limits ?? null) || !keepsPorts(definition, target)) throw new KilnError("ErrFieldNotBetween", { field: "definition" });
}
