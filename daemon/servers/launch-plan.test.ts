// The launch plan on its own: what a start would run and a stop would send, from a definition and
// its values, with nothing spawned.
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { templateSchema, variableValues, type ServerDefinition, type Values } from "../../core/definition";
import { KilnError } from "../../core/errors";
import { Jail } from "../files/jail";
import { tempDir } from "../../test/helpers/process";
import { consoleOnLoopback, launchPlan, stopPlan, throughServerAddress } from "./launch-plan";

const folder = tempDir("kiln-launch-plan-");
const jail = new Jail(folder);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function definition(fields: Record<string, unknown>): ServerDefinition {
  return templateSchema.parse({ name: "plan", ...fields });
}

const valuesOf = (def: ServerDefinition): Values => ({ ...variableValues(def), rootDir: folder, serverId: "s1" });
const plan = (def: ServerDefinition, values = valuesOf(def)) => launchPlan({ definition: def, values, serverId: "s1", jail });

function refusal(work: () => unknown): KilnError {
  try {
    work();
  } catch (error) {
    if (error instanceof KilnError) return error;
    throw error;
  }
  throw new Error("expected a KilnError");
}

describe("launchPlan", () => {
  test("the command is split first, then each word substituted; the values travel as environment variables; the working directory is substituted", () => {
    const def = definition({
      run: { command: "java -Xmx${memory}M -jar ${jar}", workingDirectory: "game/${world}", environmentVars: { EXTRA: "${memory}" } },
      data: { memory: { value: "1024" }, jar: { value: "my server.jar" }, world: { value: "w1" } },
    });
    const p = plan(def);
    // A value with a space stays one word: values never add words to a command line.
    expect(p.argv).toEqual(["java", "-Xmx1024M", "-jar", "my server.jar"]);
    expect(p.workingDirectory).toBe("game/w1");
    expect(p.env).toMatchObject({ memory: "1024", jar: "my server.jar", EXTRA: "1024" });
    expect(p.console).toBeNull();
  });

  test("a v3 command list: the first entry whose condition holds, read against the server's folder; else the one without a condition", () => {
    const def = definition({ run: { command: [{ command: "./modded", if: "file_exists('mods.flag')" }, { command: "./plain" }] } });
    expect(plan(def).argv).toEqual(["./plain"]);
    writeFileSync(join(folder, "mods.flag"), "");
    expect(plan(def).argv).toEqual(["./modded"]);
  });

  test("no command that applies, or one without words, is ErrFieldRequired naming its field", () => {
    expect(refusal(() => plan(definition({ run: { command: "" } }))).metadata).toEqual({ field: "run.command" });
    expect(refusal(() => plan(definition({ run: { command: [{ command: "./x", if: "env == 'nowhere'" }] } }))).code).toBe("ErrFieldRequired");
    const error = refusal(() => plan(definition({ run: { command: "${nothing}" }, data: { nothing: { value: "" } } })));
    expect(error.code).toBe("ErrFieldRequired");
    expect(error.metadata).toEqual({ field: "run.command" });
  });

  test("a network console: its type and address with the values substituted; the ports the variables name", () => {
    const def = definition({
      run: { command: "./srv", stdin: { type: "rcon", ip: "127.0.0.1", port: "${rconPort}", password: "${rconPassword}" } },
      data: { port: { value: "27015" }, rconPort: { value: "27020", userEdit: false }, rconPassword: { value: "s3cret" } },
    });
    const p = plan(def);
    expect(p.console).toEqual({ type: "rcon", address: { host: "127.0.0.1", port: 27020, password: "s3cret" } });
    expect(p.ports).toEqual({ tcp: [27015, 27020], udp: [27015, 27020] });
  });

  test("the allocations no variable carries: published with the variables' ports and named to the process", () => {
    const def = definition({ run: { command: "./srv" }, data: { port: { value: "25565" } }, extraPorts: [25570, 25566] });
    const p = plan(def);
    expect(p.ports).toEqual({ tcp: [25565, 25566, 25570], udp: [25565, 25566, 25570] });
    expect(p.env.KILN_EXTRA_PORTS).toBe("25570,25566");
    expect(plan(definition({ run: { command: "./srv" } })).env.KILN_EXTRA_PORTS).toBeUndefined();
  });

  test("a console port from a variable users may edit is refused, named by the command entry's own field", () => {
    const def = definition({
      run: { command: [{ command: "./srv", stdin: { type: "telnet", ip: "127.0.0.1", port: "${telnetPort}" } }] },
      data: { telnetPort: { value: "8081", userEdit: false } },
    });
    // Saved templates are refused this already; the node checks again at start.
    def.data.telnetPort!.userEdit = true;
    const error = refusal(() => plan(def));
    expect(error.code).toBe("ErrUserVariableNotAllowed");
    expect(error.metadata).toEqual({ field: "run.command.0.stdin.port", variable: "telnetPort" });
  });

  test("an egg's command runs through its image's entrypoint: no argv, the line as STARTUP", () => {
    const def = definition({
      environment: { type: "docker", image: "egg/runtime", conventions: "egg" },
      run: { command: "java -Xmx{{SERVER_MEMORY}}M -jar {{SERVER_JARFILE}}" },
      data: { SERVER_JARFILE: { value: "server.jar" } },
    });
    const p = plan(def);
    expect(p.argv).toEqual([]);
    // The entrypoint substitutes it, from the environment variables beside it.
    expect(p.env.STARTUP).toBe("java -Xmx${SERVER_MEMORY}M -jar ${SERVER_JARFILE}");
    expect(p.env.SERVER_JARFILE).toBe("server.jar");
  });
});

describe("stopPlan", () => {
  test("the stop signal when the template names one, else the stop command substituted, else SIGTERM", () => {
    expect(stopPlan({ stopCode: 2, stop: "quit" }, {})).toEqual({ signal: 2 });
    expect(stopPlan({ stop: "say ${bye}; stop" }, { bye: "later" })).toEqual({ command: "say later; stop" });
    expect(stopPlan({}, {})).toEqual({ signal: "SIGTERM" });
  });
});

describe("a console on the server's own loopback", () => {
  test("is reached through the server's address and still named as its template names it", () => {
    const address = { host: "127.0.0.1", port: 25575, password: "p" };
    expect(consoleOnLoopback(address)).toBe(true);
    expect(consoleOnLoopback({ ...address, host: "::1" })).toBe(false);
    expect(consoleOnLoopback(null)).toBe(false);
    expect(throughServerAddress(address, "10.88.0.2")).toEqual({ host: "10.88.0.2", port: 25575, password: "p", shownAs: "127.0.0.1:25575" });
  });
});
