// Which variables PufferPanel's substitute-then-split makes several arguments of, as the importer
// writes them out (./word-split), and that the marked template runs the words PufferPanel runs.
import { describe, expect, test } from "bun:test";
import { importTemplate } from "./import";
import { templateSchema } from "./template";
import { runInvocation } from "./invocation";
import { splitWordNames } from "./word-split";
import { variableValues } from "./template";

const SPONGE = {
  type: "minecraft-java",
  display: "Sponge (2.x)",
  data: {
    memory: { type: "integer", value: "1024", display: "Memory", required: true },
    extraArgs: { value: "-XX:+UseG1GC -XX:+AlwaysPreTouch", display: "JVM Arguments", desc: "Extra JVM arguments" },
    name: { value: "My Server", display: "Name" },
    flags: { value: "", display: "Launch flags" },
    level: { value: "world one", display: "Level" },
    args: { value: "-a -b", display: "Quoted" },
  },
  install: [{ type: "command", commands: ["./setup.sh ${flags}"] }],
  run: { command: 'java -Xmx${memory}M ${extraArgs} -jar server.jar -name ${name} --level=${level} "${args}"', stop: "stop" },
  environment: { type: "tty" },
};

describe("PufferPanel templates: variables holding several options split into words", () => {
  test("marked where the meaning is a list of options and the variable stands alone as a word; noted", () => {
    const { template, notes } = importTemplate(SPONGE);
    const t = templateSchema.parse(template);
    expect([...splitWordNames(t)].sort()).toEqual(["extraArgs", "flags"]);
    expect(notes.filter((n) => n.rule === "splitWords").map((n) => n.field).sort()).toEqual(["data.extraArgs.splitWords", "data.flags.splitWords"]);
    // A name stays one argument; a variable inside a word or quoted is not one that stands alone.
    expect(runInvocation({ ...t.run, command: t.run.command as string }, variableValues(t), { split: splitWordNames(t) }).argv).toEqual([
      "java", "-Xmx1024M", "-XX:+UseG1GC", "-XX:+AlwaysPreTouch", "-jar", "server.jar", "-name", "My Server", "--level=world one", "-a -b",
    ]);
  });

  test("a value of option words marks it whatever its name; a file's own splitWords is kept as it says", () => {
    const v3 = { ...SPONGE, icon: "x", data: { opts: { value: "-Dx=1 +y", display: "Tuning" }, extraArgs: { value: "-a -b", display: "JVM Arguments", splitWords: false } } };
    const t = templateSchema.parse(importTemplate({ ...v3, run: { command: "java ${opts} ${extraArgs}" } }).template);
    expect(t.data.opts!.splitWords).toBe(true);
    expect(t.data.extraArgs!.splitWords).toBe(false);
  });

  test("Kiln's own templates are taken as written: no variable splits unless the template says so", () => {
    const kiln = { display: "x", readme: "", data: { extraArgs: { value: "-a -b", display: "JVM Arguments", required: false, userEdit: true } }, run: { command: "java ${extraArgs}" } };
    const { format, template } = importTemplate(kiln);
    expect(format).toBe("kiln");
    expect(splitWordNames(templateSchema.parse(template)).size).toBe(0);
  });
});
