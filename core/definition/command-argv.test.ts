import { describe, expect, test } from "bun:test";
import { codeWordIndexes, commandArgv, joinCommandLine, splitCommandLine } from "./command-line";
import { runInvocation, serverEnvironment, variableEnvironment } from "./invocation";
import { checkVariableValue } from "./variable-value";
import { KilnError } from "../errors";

const HOSTILE = ["$(touch x)", "`touch x`", ";touch x", "a b", `"a b"`, "'a'\\''b'", "x && touch y", "${other}", "-c", "\\", "*"];

describe("commandArgv: split first, then substitute word by word", () => {
  test("a value is always exactly the text of its one word", () => {
    for (const value of HOSTILE) {
      expect(commandArgv("java -Xmx${memory}M -jar server.jar", { memory: value, other: "no" })).toEqual(["java", `-Xmx${value}M`, "-jar", "server.jar"]);
      expect(commandArgv(`./game -name "\${name}" -world '\${name}'`, { name: value, other: "no" })).toEqual(["./game", "-name", value, "-world", value]);
    }
  });

  test("an unquoted word of variables that come out empty is left out; a quoted one stays", () => {
    expect(commandArgv("./game ${flag} -port 1", { flag: "" })).toEqual(["./game", "-port", "1"]);
    expect(commandArgv("./game ${flag}${more} -port 1", { flag: "", more: "" })).toEqual(["./game", "-port", "1"]);
    expect(commandArgv(`./game "\${flag}" -port 1`, { flag: "" })).toEqual(["./game", "", "-port", "1"]);
    expect(commandArgv("./game ${flag}", { flag: "-crossplay" })).toEqual(["./game", "-crossplay"]);
  });

  test("a shell's script is never substituted: the shell reads the exported variable", () => {
    const argv = commandArgv(`sh -c 'echo "$motd" \${motd}' name '\${motd}'`, { motd: "$(touch x)" });
    expect(argv).toEqual(["sh", "-c", `echo "$motd" \${motd}`, "name", "$(touch x)"]);
  });

  test("a value cannot make the line a shell call and reach its script", () => {
    expect(commandArgv("${program} -c 'echo ${msg}'", { program: "sh", msg: "hi; touch x" })).toEqual(["sh", "-c", "echo ${msg}"]);
    expect(commandArgv("sh ${flag} 'echo ${msg}'", { flag: "-c", msg: "hi; touch x" })).toEqual(["sh", "-c", "echo ${msg}"]);
  });
});

describe("commandArgv: a splitWords variable standing alone as a word", () => {
  const split = new Set(["jvmArgs"]);
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error instanceof KilnError ? [error.code, error.metadata] : error;
    }
    return "not refused";
  };

  test("its value becomes as many words as it holds, quotes grouping, each word data", () => {
    const line = "java -Xmx${memory}M ${jvmArgs} -jar server.jar nogui";
    expect(commandArgv(line, { memory: 1024, jvmArgs: "-XX:+UseG1GC  -XX:+AlwaysPreTouch" }, { split })).toEqual(["java", "-Xmx1024M", "-XX:+UseG1GC", "-XX:+AlwaysPreTouch", "-jar", "server.jar", "nogui"]);
    expect(commandArgv(line, { memory: 1, jvmArgs: `-Dmotd="a b" '-Dx=$(y)' ;touch x > out && rm -rf y` }, { split })).toEqual(["java", "-Xmx1M", "-Dmotd=a b", "-Dx=$(y)", ";touch", "x", ">", "out", "&&", "rm", "-rf", "y", "-jar", "server.jar", "nogui"]);
    // Empty: no word at all, as an unquoted empty value.
    expect(commandArgv(line, { memory: 1, jvmArgs: "" }, { split })).toEqual(["java", "-Xmx1M", "-jar", "server.jar", "nogui"]);
  });

  test("only where it stands alone and unquoted, and only when its template says so", () => {
    const values = { jvmArgs: "-a -b" };
    expect(commandArgv(`java "\${jvmArgs}" x\${jvmArgs} \${jvmArgs}`, values, { split })).toEqual(["java", "-a -b", "x-a -b", "-a", "-b"]);
    expect(commandArgv("java ${jvmArgs}", values)).toEqual(["java", "-a -b"]);
  });

  test("a value whose words would be program text is refused, wherever the words land", () => {
    expect(refusal(() => commandArgv("sh ${jvmArgs}", { jvmArgs: "-c 'touch pwned'" }, { split, field: "run.command" }))).toEqual(["ErrValueIsCode", { field: "run.command", variable: "jvmArgs" }]);
    expect(refusal(() => commandArgv("java ${jvmArgs} -jar x.jar", { jvmArgs: "-Dx sh -c 'touch pwned'" }, { split }))).toEqual(["ErrValueIsCode", { field: "command", variable: "jvmArgs" }]);
    expect(refusal(() => commandArgv("python3 ${jvmArgs}", { jvmArgs: "-c print(1)" }, { split }))).toEqual(["ErrValueIsCode", { field: "command", variable: "jvmArgs" }]);
    // A script file's own arguments are not a script: `sh start.sh -c …` runs start.sh.
    expect(commandArgv("sh start.sh ${jvmArgs}", { jvmArgs: "-c 'touch pwned'" }, { split })).toEqual(["sh", "start.sh", "-c", "touch pwned"]);
  });

  test("a value is never an interpreter's option: not code in another spelling, not standard input, not a way round the script", () => {
    const value = (line: string, main: string) => refusal(() => commandArgv(line, { main }, { split: new Set(["main"]) }));
    const refused = ["ErrValueIsCode", { field: "command", variable: "main" }];
    for (const main of ["-cprint(1)", "-Ic print(1)", "-c print(1)", "-", "-i", "-m code", "/usr/lib/python3.11/code.py", "../../usr/lib/python3.11/code.py", ""]) {
      expect([main, value("python3 -u ${main}", main)]).toEqual([main, refused]);
    }
    for (const main of ["--eval=1", "-pe 1", "--print=1", "-e 1", "-i", "--import=data:text/javascript,1", "--inspect=0.0.0.0:9229 app.js"]) expect([main, value("node ${main}", main)]).toEqual([main, refused]);
    for (const [line, main] of [["perl ${main}", "-ne print"], ["ruby ${main}", "-ne p"], ["php ${main}", "-r1"], ["lua ${main}", "-eprint(1)"], ["python3 -m ${main}", "code"]]) {
      expect([line, value(line!, main!)]).toEqual([line, refused]);
    }
    // A value attached to a code option the template wrote is program text too.
    expect(refusal(() => commandArgv(`python3 -c"print('\${name}')"`, { name: "');import os;os.system('id" }))).toEqual(["ErrValueIsCode", { field: "command", variable: "name" }]);
    // What a value may be: the script, inside the server's folder, and the script's own arguments.
    expect(commandArgv("python3 -u ${main} --port ${port}", { main: "bot/main.py", port: "-c" })).toEqual(["python3", "-u", "bot/main.py", "--port", "-c"]);
    expect(commandArgv("node --max-old-space-size=${memory} ${main}", { memory: 512, main: "index.js" })).toEqual(["node", "--max-old-space-size=512", "index.js"]);
  });

  test("a value may tune a JVM, never make it run a command or load code", () => {
    const jvm = (jvmArgs: string) => refusal(() => commandArgv("java -Xmx${memory}M ${jvmArgs} -jar ${jar} nogui", { memory: 1024, jvmArgs, jar: "server.jar" }, { split }));
    expect(jvm("-XX:+UseG1GC -Dfile.encoding=UTF-8 -Dusing.aikars.flags=https://mcflags.emc.gs")).toBe("not refused");
    for (const jvmArgs of ["-XX:OnOutOfMemoryError=cat${IFS}private.txt", "-XX:OnError=id", "-javaagent:/tmp/a.jar", "-agentlib:jdwp=transport=dt_socket,server=y,address=*:5005", "@args.txt", "-Dcom.sun.management.jmxremote.port=9010", "-XX:VMOptionsFile=x"]) {
      expect([jvmArgs, jvm(jvmArgs)]).toEqual([jvmArgs, ["ErrValueIsCode", { field: "command", variable: "jvmArgs" }]]);
    }
    expect(refusal(() => commandArgv("java -jar ${jar}", { jar: "/usr/share/java/other.jar" }))).toEqual(["ErrValueIsCode", { field: "command", variable: "jar" }]);
  });

  test("nor can an empty word left out move a value into a shell's script", () => {
    expect(refusal(() => commandArgv("sh ${flag} -c ${script}", { flag: "", script: "touch pwned" }))).toEqual(["ErrValueIsCode", { field: "command", variable: "script" }]);
  });

  test("a value whose quotes do not close cannot be read as words: refused naming the variable", () => {
    expect(refusal(() => commandArgv("java ${jvmArgs}", { jvmArgs: `-Dname="open` }, { split }))).toEqual(["ErrFieldPatternMismatch", { field: "jvmArgs", pattern: "words with every quote closed" }]);
    expect(refusal(() => checkVariableValue("jvmArgs", { display: "", desc: "", type: "string", value: "", required: false, userEdit: true, splitWords: true }, `-D'x`))).toEqual(["ErrFieldPatternMismatch", { field: "jvmArgs", pattern: "words with every quote closed" }]);
    expect(checkVariableValue("jvmArgs", { display: "", desc: "", type: "string", value: "", required: false, userEdit: true }, `-D'x`)).toBe(`-D'x`);
  });
});

describe("codeWordIndexes", () => {
  const code = (line: string) => [...codeWordIndexes(splitCommandLine(line))].map((i) => splitCommandLine(line)[i]);

  test("shells, wherever they stand in the line", () => {
    expect(code("sh -c 'a' b c")).toEqual(["a"]);
    expect(code("/bin/bash -ec 'a'")).toEqual(["a"]);
    expect(code("bash -o pipefail -c 'a'")).toEqual(["a"]);
    expect(code("bash -c -o pipefail 'a'")).toEqual(["a"]);
    expect(code("env X=1 timeout 60 busybox sh -c 'a' b")).toEqual(["a"]);
    expect(code("su -c 'a' steam")).toEqual(["a"]);
    expect(code("sh script.sh arg")).toEqual([]);
    expect(code("java -jar server.jar")).toEqual([]);
  });

  test("interpreters and awk", () => {
    expect(code("python3 -u -c 'a'")).toEqual(["a"]);
    expect(code("python3.11 -c 'a'")).toEqual(["a"]);
    expect(code("node -e 'a'")).toEqual(["a"]);
    expect(code("perl -E 'a' file")).toEqual(["a"]);
    expect(code("awk -v n=1 -F , 'a' file")).toEqual(["a"]);
    expect(code("awk -f prog.awk file")).toEqual([]);
    expect(code("python3 -u main.py")).toEqual([]);
  });
});

describe("variables as environment variables", () => {
  test("names a shell can read are exported, upper case too (PufferPanel's RConPort); the node's own (PATH, LD_PRELOAD) never", () => {
    expect(variableEnvironment({ memory: 1024, eula: true, motd: "$(x)", PATH: "/evil", LD_PRELOAD: "/evil.so", "server.port": 1, _x: "y", RConPort: 28016, MaxPlayers: 50 })).toEqual({
      memory: "1024", eula: "true", motd: "$(x)", _x: "y", RConPort: "28016", MaxPlayers: "50",
    });
    const denied = ["HOME", "IFS", "BASH_ENV", "ENV", "SHELL", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "BASH_FUNC_x%%", "NODE_OPTIONS", "JAVA_TOOL_OPTIONS", "PYTHONPATH", "LC_ALL", "LANG", "GLIBC_TUNABLES", "KILN_DAEMON_SECRET", "1x"];
    expect(variableEnvironment(Object.fromEntries(denied.map((name) => [name, "/evil"])))).toEqual({});
  });

  test("the server's own process also gets the loader variables eggs name (LD_LIBRARY_PATH, LD_PRELOAD, LANGUAGE); nothing else of the deny-list", () => {
    const values = { LD_LIBRARY_PATH: "./linux64", LD_PRELOAD: "./libs/x.so", LANGUAGE: "1", LD_AUDIT: "/evil", PATH: "/evil", LANG: "C", memory: 1 };
    expect(serverEnvironment(values)).toEqual({ LD_LIBRARY_PATH: "./linux64", LD_PRELOAD: "./libs/x.so", LANGUAGE: "1", memory: "1" });
    expect(runInvocation({ command: "./game", workingDirectory: "", environmentVars: {} }, values).env).toEqual(serverEnvironment(values));
    // Install steps and tasks: the node's side, never.
    expect(variableEnvironment(values)).toEqual({ memory: "1" });
  });

  test("the run invocation: argv, working directory, exported variables under the template's environmentVars", () => {
    const run = { command: "sh -c 'exec java -Xmx\"$memory\"M' ${serverId}", workingDirectory: "${sub}", environmentVars: { PORT: "${port}", memory: "fixed" } };
    expect(runInvocation(run, { memory: 512, port: 80, sub: "game", serverId: "ab" })).toEqual({
      argv: ["sh", "-c", `exec java -Xmx"$memory"M`, "ab"],
      workingDirectory: "game",
      env: { memory: "fixed", port: "80", sub: "game", serverId: "ab", PORT: "80" },
    });
  });

  test("a substituted line joins into one that splits back to the same words", () => {
    for (const value of HOSTILE) {
      const argv = commandArgv("tool ${v} '${v}' x${v}y", { v: value, other: "" });
      expect(splitCommandLine(joinCommandLine(argv))).toEqual(argv);
    }
  });
});
