import { describe, expect, test } from "bun:test";
import { eggInvocation, eggStartup } from "./egg-runtime";
import { eggFacts } from "./egg-facts";

describe("egg runtime invocation", () => {
  test("STARTUP is the command as written, {{VAR}} as ${VAR}: no value is put into its text", () => {
    expect(eggStartup("java -Xmx{{SERVER_MEMORY}}M -jar {{ SERVER_JARFILE }} ${extra}")).toBe("java -Xmx${SERVER_MEMORY}M -jar ${SERVER_JARFILE} ${extra}");
    const values = { SERVER_JARFILE: "$(rm -rf /).jar", port: "25565" };
    const invocation = eggInvocation({ command: "java -jar {{SERVER_JARFILE}}", workingDirectory: "", environmentVars: {} }, values, eggFacts(values, { memoryMiB: 2048 }, "srv1"));
    expect(invocation.argv).toEqual([]);
    expect(invocation.env.STARTUP).toBe("java -jar ${SERVER_JARFILE}");
    expect(invocation.env.SERVER_JARFILE).toBe("$(rm -rf /).jar");
    expect(invocation.env).toMatchObject({ SERVER_MEMORY: "2048", SERVER_PORT: "25565", SERVER_IP: "0.0.0.0", P_SERVER_UUID: "srv1", P_SERVER_LOCATION: "" });
    expect(invocation.env.TZ).toBeTruthy();
  });

  test("a variable cannot change the SERVER_ values or TZ", () => {
    const values = { SERVER_PORT: "1", TZ: "Mars/Olympus", port: "25565" };
    const env = eggInvocation({ command: "x", workingDirectory: "", environmentVars: {} }, values, eggFacts(values, undefined, "s")).env;
    expect(env.SERVER_PORT).toBe("25565");
    expect(env.TZ).not.toBe("Mars/Olympus");
    expect(env.SERVER_MEMORY).toBe("0");
  });
});
