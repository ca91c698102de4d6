// The carrier of loader variables past the stages in front of a command (./carried-env): what the
// stages get, and that the command, run for real through the carrier's shell, gets exactly the
// environment it asked for.
import { describe, expect, test } from "bun:test";
import { carryPastWrappers } from "./carried-env";

const BASE = { PATH: "/usr/bin:/bin", HOME: "/srv/s", LANG: "C.UTF-8" };

describe("carryPastWrappers", () => {
  test("nothing to carry: the spawn stays as it was", () => {
    const env = { ...BASE, memory: "1024" };
    expect(carryPastWrappers(["java"], env, BASE)).toEqual({ argv: ["java"], env });
  });

  test("loader and PATH-like names leave the stages' environment (the base's value stays); the command gets them back", () => {
    const env = { ...BASE, PATH: "/srv/s/bin:/usr/bin:/bin", LD_LIBRARY_PATH: "./libs", LD_PRELOAD: "./libs/x.so", LANGUAGE: "de", memory: "1024", "odd-name": "kept" };
    const carried = carryPastWrappers(["./game", "-port", "1"], env, BASE);
    expect(carried.env).toEqual({
      ...BASE,
      memory: "1024",
      "odd-name": "kept",
      KILN_CARRY_PATH: "/srv/s/bin:/usr/bin:/bin",
      KILN_CARRY_LD_LIBRARY_PATH: "./libs",
      KILN_CARRY_LD_PRELOAD: "./libs/x.so",
      KILN_CARRY_LANGUAGE: "de",
    });
    expect(carried.argv.slice(0, 2)).toEqual(["/bin/sh", "-c"]);
    expect(carried.argv.slice(3)).toEqual(["kiln-env", "./game", "-port", "1"]);
    // The script names variables only: no value is ever part of its text.
    expect(carried.argv[2]).not.toContain("./libs");
  });

  test("run for real, the command sees its own environment, values as data, and no carrier left", () => {
    const hostile = `"; touch /tmp/kiln-carried-pwned; echo "$(id)`;
    const env = { ...BASE, LD_LIBRARY_PATH: hostile, LANGUAGE: "de", memory: "1" };
    const carried = carryPastWrappers(["/usr/bin/env"], env, BASE);
    const out = Bun.spawnSync(carried.argv, { env: carried.env, stdout: "pipe" }).stdout.toString();
    const seen = Object.fromEntries(out.trim().split("\n").map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]));
    expect(seen).toMatchObject({ LD_LIBRARY_PATH: hostile, LANGUAGE: "de", memory: "1", PATH: BASE.PATH });
    expect(Object.keys(seen).filter((name) => name.startsWith("KILN_CARRY_"))).toEqual([]);
  });
});
