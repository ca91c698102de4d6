// What an install, pre/post-run or task step gets to work with. Steps never see the server
// object: only its folder (through the jail), the node's download sources, a way to run a
// command in the server's environment, and the console.
import type { SourceUrls } from "../config";
import type { Jail } from "../files/jail";
import type { FileDenylist } from "../files/denylist";
import type { ExitInfo } from "../environment/types";
import type { ExtractLimits } from "../files/extract-limits";
import type { Values } from "../../core/definition/substitute";
import type { EggFacts } from "../../core/definition/egg-facts";
import type { DaemonMessage } from "../../core/live/daemon-message";
import type { FetchRule } from "./http";

export interface StepContext {
  /** The server's folder; every file a step reads or writes is resolved through it. */
  jail: Jail;
  /**
   * The template's fileDenylist, which a scheduled task's file steps keep to as the file manager
   * does (a task is a user's hands); the template's own install and run steps have none.
   */
  denylist?: FileDenylist;
  /** The node's shared folder for tools steps install (Java builds, SteamCMD). */
  binariesDir: string;
  sources: SourceUrls;
  /** Writes a line marked as the daemon's own on the server's console. */
  log(message: DaemonMessage): void;
  /**
   * Runs argv in the server's environment (host process or container) in `workingDirectory`
   * (relative to the server folder), output on the console; resolves with how it ended.
   */
  execute(
    argv: string[],
    options?: {
      workingDirectory?: string;
      env?: Record<string, string>;
      /** Run on the node itself rather than inside the server's container (SteamCMD lives on the node). */
      host?: boolean;
    },
  ): Promise<ExitInfo>;
  /** Aborted when the server is killed or deleted mid-install. */
  signal?: AbortSignal;
  /** Where its downloads may lead (./http's FetchRule); absent, anywhere (the node's own fetches). */
  outbound?: FetchRule;
  /** Caps on what the extract step may unpack; the node's configured ones (DEFAULT_EXTRACT_LIMITS when not given). */
  extractLimits?: ExtractLimits;
  /** The server's environment type as its definition names it ("host", "docker", …): `env` in step conditions. */
  environmentType?: string;
  /** The server's id: `serverId` in step conditions. */
  serverId?: string;
  /** The node's CurseForge API key (config `curseforgeKey`), which the curseforge step needs. */
  curseforgeKey?: string;
  /**
   * Pulls an image through the Docker Engine, the image as the step writes it (its variables are
   * substituted under the image rules). Only docker servers have it (./dockerpull).
   */
  pullImage?(image: string): Promise<void>;
  /** The variables whose value may stand for several words of a command line (their `splitWords`). */
  splitWords?: ReadonlySet<string>;
  /** The variables the step was given (the configfile step resolves its placeholders itself, in one pass). */
  values?: Values;
  /** What egg placeholders name: the server's port, address, memory, id, and the node's address as containers see it. */
  placeholders?: { facts: EggFacts; dockerInterface: string };
  /** Runs an install script in a container of its own (./containerscript); resolves with its exit code. */
  runScript?(spec: { image: string; entrypoint: string; script: string; env: Record<string, string> }): Promise<number | null>;
}

/** What a step may hand back: variables it set (PufferPanel's outputVariable), by name. */
export interface StepOutput {
  variables?: Record<string, string>;
}
