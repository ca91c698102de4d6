// The create options of the egg conventions' server container and of a containerscript's
// container: where the folder is, what runs, and the boundary (pure; no engine needed).
import { describe, expect, test } from "bun:test";
import { environmentSchema, type DockerEnvironment as DockerSpec } from "../../core/definition";
import { containerOptions, type ContainerInput } from "./docker-options";
import { scriptContainerOptions, SCRIPT_CAPABILITIES } from "./script-container";

const spec = (fields: Record<string, unknown> = {}) => environmentSchema.parse({ type: "docker", image: "egg/runtime", conventions: "egg", ...fields }) as DockerSpec;
const input = (fields: Partial<ContainerInput> = {}): ContainerInput => ({ name: "kiln-a", serverId: "a", serverDir: "/srv/a", spec: spec(), argv: [], workingDirectory: "", env: { STARTUP: "java -jar ${SERVER_JARFILE}" }, user: "1000:1000", stdin: true, ...fields });

describe("the egg conventions' container", () => {
  test("the folder at /home/container only, the image's own entrypoint and cmd, HOME there", () => {
    const options = containerOptions(input());
    expect(options.HostConfig?.Mounts).toEqual([{ Type: "bind", Source: "/srv/a", Target: "/home/container", ReadOnly: false }]);
    expect(options.WorkingDir).toBe("/home/container");
    expect(options.Entrypoint).toBeUndefined();
    expect(options.Cmd).toBeUndefined();
    expect(options.Env).toEqual(["HOME=/home/container", "STARTUP=java -jar ${SERVER_JARFILE}"]);
    expect(options.User).toBe("1000:1000");
    expect(options.HostConfig?.CapDrop).toEqual(["ALL"]);
    expect(options.HostConfig?.SecurityOpt).toEqual(["no-new-privileges"]);
  });

  test("a step's command replaces the entrypoint; a working directory stays under /home/container", () => {
    const options = containerOptions(input({ argv: ["sh", "-c", "ls"], workingDirectory: "../../etc" }));
    expect(options.Entrypoint).toEqual(["sh"]);
    expect(options.Cmd).toEqual(["-c", "ls"]);
    expect(options.WorkingDir).toBe("/home/container/etc");
  });

  test("without the conventions nothing changes: /server and /pufferpanel, Cmd is the argv", () => {
    const options = containerOptions(input({ spec: spec({ conventions: undefined }), argv: ["run"] }));
    expect(options.HostConfig?.Mounts?.map((m) => m.Target)).toEqual(["/server", "/pufferpanel"]);
    expect(options.Cmd).toEqual(["run"]);
    expect(options.Entrypoint).toBeUndefined();
  });
});

describe("a containerscript's container", () => {
  const options = scriptContainerOptions({ serverId: "a", serverDir: "/srv/a", image: "installer", entrypoint: "bash", env: { A: "1" }, networkMode: "bridge", limits: { memoryMiB: 512, processes: 100 } }, "/tmp/kiln-install-x", "kiln-a-install-1");

  test("runs <entrypoint> /mnt/install/install.sh as root in /mnt/server, the script read-only beside the folder", () => {
    expect(options.Entrypoint).toEqual(["bash"]);
    expect(options.Cmd).toEqual(["/mnt/install/install.sh"]);
    expect(options.User).toBe("0:0");
    expect(options.WorkingDir).toBe("/mnt/server");
    expect(options.Env).toEqual(["A=1"]);
    expect(options.HostConfig?.Mounts).toEqual([
      { Type: "bind", Source: "/srv/a", Target: "/mnt/server", ReadOnly: false },
      { Type: "bind", Source: "/tmp/kiln-install-x", Target: "/mnt/install", ReadOnly: true },
    ]);
  });

  test("root without most of its powers: every capability dropped but a package manager's, no new privileges, the server's limits", () => {
    expect(options.HostConfig?.Privileged).toBe(false);
    expect(options.HostConfig?.CapDrop).toEqual(["ALL"]);
    expect(options.HostConfig?.CapAdd).toEqual(SCRIPT_CAPABILITIES);
    for (const dangerous of ["SYS_ADMIN", "NET_RAW", "MKNOD", "SYS_CHROOT", "NET_ADMIN", "SYS_PTRACE", "SETFCAP"]) expect(SCRIPT_CAPABILITIES).not.toContain(dangerous);
    expect(options.HostConfig?.SecurityOpt).toEqual(["no-new-privileges"]);
    expect(options.HostConfig?.Memory).toBe(512 * 1024 * 1024);
    expect(options.HostConfig?.PidsLimit).toBe(100);
    expect(options.Labels).toEqual({ "kiln.server": "a" });
  });
});
