// runSteps: substitution, console lines, stopping at the first failure, cancellation.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { stepSchema, type Step } from "../../core/definition/steps";
import { runStep, runSteps } from "./index";
import { startFixtureSources, type FixtureSources } from "../../test/helpers/step-sources";
import { failure } from "../../test/helpers/failure";
import { renderMessage } from "../../core/live/daemon-message";
import { english } from "../../locales/english";

let fixtures: FixtureSources;
beforeAll(() => void (fixtures = startFixtureSources()));
afterAll(() => fixtures.stop());

const steps = (raw: unknown[]): Step[] => raw.map((s) => stepSchema.parse(s));

test("runs steps in order with ${name} values substituted and logs each one", async () => {
  const t = fixtures.context();
  await runSteps(
    steps([
      { type: "mkdir", target: "${dir}" },
      { type: "writefile", target: "${dir}/motd.txt", text: "Welcome to ${name}! ${unknown} stays" },
      { type: "command", commands: "sh -c 'cp ${dir}/motd.txt copy.txt'" },
      { type: "download", files: `${fixtures.base}/files/\${file}` },
    ]),
    { dir: "config", name: "Kiln SMP", file: "hello.txt" },
    t.ctx,
  );
  expect(readFileSync(join(t.root, "config/motd.txt"), "utf8")).toBe("Welcome to Kiln SMP! ${unknown} stays");
  expect(readFileSync(join(t.root, "copy.txt"), "utf8")).toBe("Welcome to Kiln SMP! ${unknown} stays");
  expect(readFileSync(join(t.root, "hello.txt"), "utf8")).toBe("hello from the fixture server\n");
  expect(t.lines.filter((l) => l.startsWith("step "))).toEqual(["step 1/4: mkdir", "step 2/4: writefile", "step 3/4: command", "step 4/4: download"]);
});

test("a failing step stops the sequence with a clear line and ErrStepFailed", async () => {
  const t = fixtures.context();
  const error = await failure(
    runSteps(
      steps([
        { type: "writefile", target: "before.txt", text: "ran" },
        { type: "command", commands: ["sh -c 'exit 0'", "sh -c 'exit 3'"] },
        { type: "writefile", target: "after.txt", text: "must not run" },
      ]),
      {},
      t.ctx,
    ),
  );
  expect(error.code).toBe("ErrStepFailed");
  expect(error.metadata).toEqual({ step: "command", reason: `command "sh -c 'exit 3'" exited with code 3` });
  expect(t.lines).toContain(`step 2/3 (command) failed: command "sh -c 'exit 3'" exited with code 3`);
  expect(existsSync(join(t.root, "before.txt"))).toBe(true);
  expect(existsSync(join(t.root, "after.txt"))).toBe(false);
  expect(t.lines.some((l) => l.startsWith("step 3/3"))).toBe(false);
});

test("a jail refusal becomes ErrStepFailed with the jail's reason, and nothing is written outside", async () => {
  const t = fixtures.context();
  const error = await failure(runSteps(steps([{ type: "writefile", target: "../escaped.txt", text: "x" }]), {}, t.ctx));
  expect(error.code).toBe("ErrStepFailed");
  expect(error.metadata?.step).toBe("writefile");
  expect(error.metadata?.reason).toBe("path is outside the server's folder: ../escaped.txt");
  expect(existsSync(join(dirname(t.root), "escaped.txt"))).toBe(false);
});

test("a substituted value cannot smuggle a path out of the folder", async () => {
  const t = fixtures.context();
  const error = await failure(runSteps(steps([{ type: "mkdir", target: "${dir}" }]), { dir: "../../kiln-smuggled" }, t.ctx));
  expect(error.metadata?.reason).toContain("outside the server's folder");
  expect(existsSync(join(dirname(t.root), "..", "kiln-smuggled"))).toBe(false);
});

test("cancellation is checked between steps", async () => {
  const controller = new AbortController();
  const t = fixtures.context(controller.signal);
  const log = t.ctx.log;
  // The server is killed while the first step runs.
  t.ctx.log = (line) => {
    log(line);
    if (renderMessage(line, english) === "step 1/2: writefile") controller.abort();
  };
  const error = await failure(
    runSteps(steps([{ type: "writefile", target: "one.txt", text: "1" }, { type: "writefile", target: "two.txt", text: "2" }]), {}, t.ctx),
  );
  expect(error.metadata).toEqual({ step: "writefile", reason: "cancelled" });
  expect(t.lines).toContain("step 2/2 (writefile) not run: cancelled");
  expect(existsSync(join(t.root, "one.txt"))).toBe(true);
  expect(existsSync(join(t.root, "two.txt"))).toBe(false);
});

test("runStep runs one step without substitution and throws the step's own error", async () => {
  const t = fixtures.context();
  await runStep(stepSchema.parse({ type: "writefile", target: "literal.txt", text: "${kept}" }), t.ctx);
  expect(readFileSync(join(t.root, "literal.txt"), "utf8")).toBe("${kept}");
  const error = await failure(runStep(stepSchema.parse({ type: "mkdir", target: "/etc/kiln-test" }), t.ctx));
  expect(error.code).toBe("ErrPathOutside");
});
