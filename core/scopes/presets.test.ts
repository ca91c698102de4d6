// Permission presets: what each gives, when a grantor may apply one, and the form body they make.
import { describe, expect, test } from "bun:test";
import { SERVER_FLAGS, type ServerFlag } from "./index";
import { PERMISSION_PRESETS, presetApplicable, withPreset } from "./presets";
import { KilnError } from "../errors";

const holding = (...flags: ServerFlag[]) => Object.fromEntries(SERVER_FLAGS.map((f) => [f, flags.includes(f)])) as Record<ServerFlag, boolean>;
const everything = holding(...SERVER_FLAGS);

describe("permission presets", () => {
  test("each preset holds the one before it; nobody but the owner deletes", () => {
    for (const flag of PERMISSION_PRESETS.viewer) expect(PERMISSION_PRESETS.operator).toContain(flag);
    for (const flag of PERMISSION_PRESETS.operator) expect(PERMISSION_PRESETS.coOwner).toContain(flag);
    for (const preset of Object.values(PERMISSION_PRESETS)) expect(preset).not.toContain("deleteServer");
    expect(PERMISSION_PRESETS.viewer).not.toContain("sendServerConsole");
    expect(PERMISSION_PRESETS.operator).not.toContain("editServerUsers");
    expect(PERMISSION_PRESETS.coOwner).toContain("editServerUsers");
  });

  test("applicable only when every flag it changes is one the grantor holds", () => {
    const operatorGrantor = holding(...PERMISSION_PRESETS.operator, "editServerUsers");
    expect(presetApplicable("viewer", new Set(), operatorGrantor)).toBe(true);
    expect(presetApplicable("operator", new Set(), operatorGrantor)).toBe(true);
    expect(presetApplicable("coOwner", new Set(), operatorGrantor)).toBe(false);
    // Someone holding deleteServer: a grantor without it cannot take it away with a preset.
    expect(presetApplicable("viewer", new Set<ServerFlag>(["deleteServer"]), operatorGrantor)).toBe(false);
    expect(presetApplicable("viewer", new Set<ServerFlag>(["deleteServer"]), everything)).toBe(true);
    // A flag already as the preset wants it needs no right to change it.
    expect(presetApplicable("coOwner", new Set(PERMISSION_PRESETS.coOwner), operatorGrantor)).toBe(true);
  });

  test("a body naming a preset gets every flag set from it; without one it is left alone", () => {
    const body = withPreset({ preset: "operator", email: "a@example.com", deleteServer: "true", viewServerConsole: "" });
    expect(body).toEqual({ email: "a@example.com", ...holding(...PERMISSION_PRESETS.operator) });
    const plain = { viewServerConsole: "true" };
    expect(withPreset(plain)).toBe(plain);
    expect(withPreset({ preset: "", startServer: "true" })).toEqual({ preset: "", startServer: "true" });
  });

  test("an unknown preset is refused, naming the ones there are", () => {
    for (const preset of ["admin", "__proto__", "constructor", "toString", "viewer\n", ["viewer"], 1]) {
      let error: unknown;
      try {
        withPreset({ preset });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(KilnError);
      expect((error as KilnError).code).toBe("ErrUnknownField");
      expect((error as KilnError).metadata).toEqual({ field: "preset", accepted: ["viewer", "operator", "coOwner"] });
    }
  });
});
