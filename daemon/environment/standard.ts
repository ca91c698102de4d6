// The standard environment: the server is a host process with piped stdin, stdout and stderr,
// in its own process group so kill reaches everything it started.
import type { ProcessEnvironment, StartSpec, RunSpec, ExitInfo } from "./types";
import { HostEnvironment } from "./host-environment";
import { hostSpawn, spawnUser, pump, exitInfo, spawnError } from "./host-process";

type PipedProcess = Bun.Subprocess<"pipe", "pipe", "pipe">;

/** How long output may keep arriving after the main process has ended. */
const EXIT_DRAIN_MS = 1000;

export class StandardEnvironment extends HostEnvironment<PipedProcess> implements ProcessEnvironment {
  readonly type = "standard" as const;

  async start(spec: StartSpec): Promise<void> {
    const proc = this.spawn(spec, await this.namespace());
    // After the spawn: it made the server's cgroup, whose count the exit compares with.
    this.noteStart();
    this.proc = proc;
    const drained = Promise.all([pump(proc.stdout, spec.output), pump(proc.stderr, spec.output)]);
    void proc.exited.then(async () => {
      // A child the process left behind may hold the pipes open; it does not get to keep the
      // server "running": its output gets a moment to drain, then the group is ended.
      await Promise.race([drained, Bun.sleep(EXIT_DRAIN_MS)]);
      killGroup(proc.pid);
      if (this.proc === proc) this.proc = null;
      spec.onExit(this.mainExit(exitInfo(proc.exitCode, proc.signalCode, this.wrappers)));
    });
  }

  async sendInput(text: string): Promise<void> {
    if (!this.proc) return;
    try {
      this.proc.stdin.write(text);
      await this.proc.stdin.flush();
    } catch (error) {
      // The process closed its input or is exiting: there is no one left to read the line, and
      // its exit is reported through onExit. Anything else is a real failure.
      if ((error as { code?: string }).code !== "EPIPE") throw error;
    }
  }

  async execute(spec: RunSpec): Promise<ExitInfo> {
    const proc = this.spawn(spec, await this.namespace());
    proc.stdin.end();
    return this.track(proc, async () => {
      await Promise.all([pump(proc.stdout, spec.output), pump(proc.stderr, spec.output), proc.exited]);
      return exitInfo(proc.exitCode, proc.signalCode, this.wrappers);
    });
  }

  private spawn(spec: RunSpec, netns: string | undefined): PipedProcess {
    const target = this.prepare(hostSpawn(this.options, spec, false, netns));
    try {
      return Bun.spawn(target.argv, {
        cwd: target.cwd,
        env: target.env,
        ...spawnUser(target),
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
        detached: true,
      });
    } catch (error) {
      throw spawnError(spec.argv, error);
    }
  }
}

/** The process was started in its own group (detached), so the group's id is its pid. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // nothing left in the group
  }
}
