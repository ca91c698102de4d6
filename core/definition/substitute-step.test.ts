import { describe, expect, test } from "bun:test";
import { splitCommandLine } from "./command-line";
import { stepSchema } from "./steps";
import { substituteStep } from "./substitute-step";
import { checkTemplateScripts } from "./script-check";
import { templateSchema } from "./template";

const step = (raw: unknown) => stepSchema.parse(raw);

describe("substituteStep", () => {
  test("command lines: each value stays one word of the line the processor splits", () => {
    const out = substituteStep(step({ type: "command", commands: ["touch ${file}", "sh -c 'echo \"$file\"' x '${file}'"] }), { file: `a b; touch x $(id) 'q' "d"` });
    if (out.type !== "command") throw new Error("not a command");
    expect(splitCommandLine(out.commands[0]!)).toEqual(["touch", `a b; touch x $(id) 'q' "d"`]);
    expect(splitCommandLine(out.commands[1]!)).toEqual(["sh", "-c", `echo "$file"`, "x", `a b; touch x $(id) 'q' "d"`]);
  });

  test("alterfile: a value is literal in the pattern and the replacement, and can never add a line", () => {
    const motd = step({ type: "alterfile", file: "server.properties", search: "(^|\\n)motd=${old}[^\\n]*", replace: "$1motd=${motd}" });
    const out = substituteStep(motd, { motd: "$` and $' and $&", old: ".*" });
    if (out.type !== "alterfile") throw new Error("not alterfile");
    const file = "a=1\nmotd=.*x\nb=2\n";
    expect(file.replace(new RegExp(out.search, "g"), out.replace)).toBe("a=1\nmotd=$` and $' and $&\nb=2\n");
    expect(() => substituteStep(motd, { motd: "x\nenable-rcon=true", old: "" })).toThrow(/line break/);
    expect(() => substituteStep(motd, { motd: "x\renable-rcon=true", old: "" })).toThrow(/line break/);
    // A value with a line break that the step does not use stops nothing.
    expect(() => substituteStep(motd, { motd: "ok", old: "", text: "two\nlines" })).not.toThrow();
  });
});

describe("checkTemplateScripts", () => {
  const template = (command: string, install: unknown[] = []) => templateSchema.parse({ run: { command }, install, data: { motd: { value: "" }, memory: { type: "integer", value: 1 } } });
  const refusal = (fn: () => void) => {
    try {
      fn();
      return null;
    } catch (e) {
      return { code: (e as { code: string }).code, metadata: (e as { metadata: unknown }).metadata };
    }
  };

  test("a variable written into a shell or interpreter script is refused, naming the field and variable", () => {
    expect(refusal(() => checkTemplateScripts(template("sh -c 'java -Xmx${memory}M'")))).toEqual({ code: "ErrVariableInScript", metadata: { field: "run.command", variable: "memory" } });
    expect(refusal(() => checkTemplateScripts(template("./run", [{ type: "command", commands: ["true", "bash -ec 'echo ${rootDir}'"] }])))).toEqual({ code: "ErrVariableInScript", metadata: { field: "install.0.commands.1", variable: "rootDir" } });
    expect(refusal(() => checkTemplateScripts(template("python3 -c 'print(\"${motd}\")'")))?.code).toBe("ErrVariableInScript");
  });

  test("scripts that read the environment, positional arguments and plain commands pass", () => {
    expect(() => checkTemplateScripts(template(`sh -c 'exec java -Xmx"$memory"M "$1" \${HOME} \${1##*/}' x '\${motd}'`))).not.toThrow();
    expect(() => checkTemplateScripts(template("java -Xmx${memory}M -jar server.jar --motd ${motd}"))).not.toThrow();
  });
});
