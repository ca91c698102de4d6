// Builds the environment a server definition asks for.
import type Dockerode from "dockerode";
import type { Environment } from "../../core/definition";
import type { ProcessEnvironment } from "./types";
import type { HostOptions } from "./host-process";
import { StandardEnvironment } from "./standard";
import { TtyEnvironment } from "./tty";
import { DockerEnvironment, type KilnNetworks } from "./docker";

export type { ProcessEnvironment, StartSpec, RunSpec, ExitInfo, ProcessStats, OutputSink } from "./types";

export interface EnvironmentDeps extends HostOptions {
  serverId: string;
  /** The Docker Engine client, made on first need so nodes without docker never touch it. */
  docker: () => Dockerode;
  /** Kiln's networks for a docker server, where it takes them (daemon/servers/environment-choice). */
  kilnNetworks?: KilnNetworks;
}

export function createEnvironment(spec: Environment, deps: EnvironmentDeps): ProcessEnvironment {
  switch (spec.type) {
    case "standard":
      return new StandardEnvironment(deps);
    case "tty":
    // PufferPanel v3's host environment runs the process on a pseudo-terminal on Linux.
    case "host":
      return new TtyEnvironment(deps);
    case "docker":
      return new DockerEnvironment({ serverId: deps.serverId, serverDir: deps.serverDir, user: deps.user, spec, docker: deps.docker(), limits: deps.limits?.current, networks: deps.kilnNetworks });
  }
}
