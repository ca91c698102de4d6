import { describe, expect, test } from "bun:test";
import { definitionBounds, withBounds } from "./bounds";
import { templateSchema } from "./template";

const docker = templateSchema.parse({ environment: { type: "docker", image: "kiln/generic", networkMode: "none" }, limits: { memoryMiB: 256, cpuPercent: 0 }, fileDenylist: ["*.key"] });

describe("definition bounds", () => {
  test("read: limits by their positive figures, the docker network, the denylist", () => {
    expect(definitionBounds(docker)).toEqual({ limits: { memoryMiB: 256 }, fileDenylist: ["*.key"], environmentType: "docker", networkMode: "none", networkName: "", portBindings: [] });
    // No positive limit is no limits, whatever the spelling.
    expect(definitionBounds({ ...docker, limits: { memoryMiB: 0 } }).limits).toBeUndefined();
  });

  test("laid over an answer that dropped or changed them, the kept ones hold and the changes are named", () => {
    const kept = definitionBounds(docker);
    const answered = { ...docker, limits: undefined, fileDenylist: undefined, environment: { type: "standard" as const } };
    const { definition, differing } = withBounds(answered, kept);
    expect(definitionBounds(definition)).toEqual(kept);
    expect(differing).toEqual(["limits", "fileDenylist", "environmentType", "networkMode", "networkName", "portBindings"]);
    // The same bounds written in another key order differ in nothing.
    expect(withBounds({ ...docker, limits: { cpuPercent: 0, memoryMiB: 256 } }, kept).differing).toEqual([]);
  });

  test("a bound the copy lacks is removed: a standard server's copy takes a docker network off it", () => {
    const kept = definitionBounds(templateSchema.parse({ environment: { type: "standard" } }));
    const { definition } = withBounds(docker, kept);
    expect(definition.environment).toEqual({ type: "standard", image: "kiln/generic", bindings: {} });
    expect(definition.limits).toBeUndefined();
  });
});
