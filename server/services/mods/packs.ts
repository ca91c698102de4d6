// Modrinth modpacks onto an existing server, for the API and the Mods tab (manageMods): search the
// packs for the server's loader and Minecraft version, plan one version (the node downloads the
// .mrpack, checks it against Modrinth's hash and reads it: the plan lists every file it lays over
// the folder and what each replaces), apply the plan (the node does it all again, with a backup
// first and the undo of any add-on change). A pack for another loader or Minecraft version is
// planned but blocked: it would not start.
import { randomUUID } from "node:crypto";
import { KilnError } from "../../../core/errors";
import type { ChangeStatus } from "../../../core/mods/change";
import { MAX_PACK_BYTES, packPlatform, type PackChange, type PackPlan, type PackReading } from "../../../core/mods/pack";
import { addonFolder, LOADERS_OF, type PlanWarning, type PlatformInfo } from "../../../core/mods/types";
import type { Db } from "../../../db/client";
import { authorize } from "../servers";
import { ServerNodeCalls } from "../servers/server-node-calls";
import type { SessionUser } from "../sessions";
import { backupBy } from "../backups";
import { ModrinthClient, type ModrinthVersion } from "./modrinth";
import { PlanStore } from "./plan-store";
import { sourceUrl } from "./sources";
import { checkedId, hit, pageOf, queryOf, sortOf, type SearchAnswer } from "./search-terms";

const plans = new PlanStore<PackPlan>();
const SHA512 = /^[0-9a-f]{128}$/;

export class ServerModpacks extends ServerNodeCalls {
  constructor(
    db: Db,
    id: string,
    private readonly user: SessionUser,
  ) {
    super(db, id);
  }

  /** Modpacks on Modrinth for the server's mod loader and Minecraft version (ErrModPlatformUnknown on a server without one: a pack needs it). */
  async search(params: { q?: string; sort?: string; page?: string }): Promise<SearchAnswer> {
    const platform = await this.modLoader();
    const facets: string[][] = [["project_type:modpack"], LOADERS_OF[platform.platform].map((l) => `categories:${l}`)];
    if (platform.gameVersion) facets.push([`versions:${platform.gameVersion}`]);
    const page = pageOf(params.page);
    const answer = await this.modrinth().search({ query: queryOf(params.q), facets, index: sortOf(params.sort), offset: (page.number - 1) * page.size, limit: page.size });
    return { hits: answer.hits.map(hit), total: answer.total_hits };
  }

  /** Plans installing a version of a pack (its newest release when none is named). */
  async plan(body: { source?: unknown; projectId?: unknown; versionId?: unknown }): Promise<PackPlan> {
    if (body.source !== undefined && body.source !== "modrinth") throw new KilnError("ErrFieldNotBetween", { field: "source" });
    const projectId = checkedId(body.projectId);
    const versionId = body.versionId === undefined ? undefined : checkedId(body.versionId, "versionId");
    const platform = await this.modLoader();
    const client = this.modrinth();
    const project = await client.project(projectId);
    if (project.project_type !== "modpack") throw new KilnError("ErrFieldNotBetween", { field: "projectId" });
    const version = versionId ? await client.version(versionId) : newest(await client.versions(project.id, [], null));
    // A version of another project (a forged or mistaken id) is not this pack's.
    if (!version || version.project_id !== project.id) throw new KilnError("ErrNotFound", { id: versionId ?? projectId });
    const pack = packFile(version);
    const reading = (await (await this.send("modsPackRead", {}, { ...pack, note: "" })).json()) as PackReading;
    const { loader, loaderVersion, gameVersion } = packPlatform(reading);
    const warnings = fitsServer(platform, project.title, loader, gameVersion);
    const plan: PackPlan = {
      planId: randomUUID(),
      source: "modrinth",
      projectId: project.id,
      versionId: version.id,
      title: project.title,
      versionNumber: version.version_number,
      pack,
      loader,
      loaderVersion,
      gameVersion,
      files: reading.files,
      overrides: reading.overrides,
      warnings,
      blocked: warnings.length > 0,
    };
    return plans.keep(this.id, this.user.id, plan);
  }

  /** Sends the plan's pack to the node, which reads it again and places it; the plan is used up. */
  async apply(planId: string): Promise<ChangeStatus> {
    const plan = plans.take(this.id, this.user.id, planId);
    if (plan.blocked) throw new KilnError("ErrModPlanBlocked");
    const change: PackChange = { ...plan.pack, note: `modpack ${plan.title} ${plan.versionNumber}`.slice(0, 200) };
    return (await (await this.send("modsPack", {}, change, { "x-kiln-by": backupBy(this.user) })).json()) as ChangeStatus;
  }

  /** What the server runs, when it is a mod loader (a pack needs one): else ErrModPlatformUnknown. */
  private async modLoader(): Promise<PlatformInfo & { platform: NonNullable<PlatformInfo["platform"]> }> {
    const platform = (await (await this.call("modsPlatform")).json()) as PlatformInfo;
    if (!platform.platform || addonFolder(platform.platform) !== "mods") throw new KilnError("ErrModPlatformUnknown");
    return platform as PlatformInfo & { platform: NonNullable<PlatformInfo["platform"]> };
  }

  private modrinth(): ModrinthClient {
    return new ModrinthClient(sourceUrl(this.db, "modrinth"));
  }
}

/** The server's modpacks for `user`, once they hold manageMods on it. */
export function modpacksFor(db: Db, user: SessionUser, id: string): ServerModpacks {
  authorize(db, user, id, "manageMods");
  return new ServerModpacks(db, id, user);
}

/** Releases before betas before alphas, newest first within each (Modrinth lists newest first). */
function newest(versions: ModrinthVersion[]): ModrinthVersion | undefined {
  const rank = { release: 0, beta: 1, alpha: 2 } as const;
  return [...versions].sort((a, b) => rank[a.version_type] - rank[b.version_type])[0];
}

/** The version's .mrpack, checked: a size the node accepts and a SHA-512 to verify it by. */
function packFile(version: ModrinthVersion): PackPlan["pack"] {
  const file = version.files.find((f) => f.primary && f.filename.endsWith(".mrpack")) ?? version.files.find((f) => f.filename.endsWith(".mrpack"));
  const sha512 = file?.hashes.sha512?.toLowerCase();
  if (!file || !sha512 || !SHA512.test(sha512) || !Number.isInteger(file.size) || file.size < 0 || file.size > MAX_PACK_BYTES) {
    throw new KilnError("ErrModNoCompatibleVersion", { title: version.name || version.version_number });
  }
  return { url: file.url, size: file.size, sha512 };
}

/** What keeps the pack from running on this server: another loader, another Minecraft version. */
function fitsServer(platform: PlatformInfo, title: string, loader: PackPlan["loader"], gameVersion: string | null): PlanWarning[] {
  const warnings: PlanWarning[] = [];
  const runs = platform.platform !== null && (platform.platform === loader || (loader !== "vanilla" && LOADERS_OF[platform.platform].includes(loader)));
  if (!runs) warnings.push({ code: "wrongLoader", title, other: loader });
  if (gameVersion && platform.gameVersion && gameVersion !== platform.gameVersion) warnings.push({ code: "wrongGameVersion", title, other: gameVersion });
  return warnings;
}
