// Modpacks onto an existing server, for the API and the Mods tab (manageMods). Modrinth's: search the
// packs for the server's loader and Minecraft version, plan one version (the node downloads the
// .mrpack, checks it against Modrinth's hash and reads it: the plan lists every file it lays over
// the folder and what each replaces), apply the plan (the node does it all again, with a backup
// first and the undo of any add-on change). A pack for another loader or Minecraft version is
// planned but blocked: it would not start. CurseForge's: found for the server's loader, laid on by
// switching the server to the template that installs CurseForge server packs (./versions).
import { randomUUID } from "node:crypto";
import { KilnError } from "../../../core/errors";
import type { ChangeStatus } from "../../../core/mods/change";
import { packMisfits, packPlatform, type InstalledPack, type PackChange, type PackPlan, type PackReading } from "../../../core/mods/pack";
import { addonFolder, LOADERS_OF, type PlatformInfo, type VersionPlan } from "../../../core/mods/types";
import type { Db } from "../../../db/client";
import { authorize, speaksForOwners } from "../servers";
import { OWNERS_CALL_HEADER } from "../../../core/contract";
import { ServerNodeCalls } from "../servers/server-node-calls";
import type { SessionUser } from "../sessions";
import { backupBy } from "../backups";
import { ModrinthClient } from "./modrinth";
import { newestVersion, packFile, SHA512 } from "./pack-versions";
import { PlanStore } from "./plan-store";
import { packSourceOf, sourceClient, sourceUrl } from "./sources";
import { checkedId, hit, pageOf, projectHit, queryOf, sortOf, type SearchAnswer } from "./search-terms";
import { CLASS, type CurseForgeClient } from "./curseforge";
import { ServerVersions } from "./versions";

const plans = new PlanStore<PackPlan>("pack-plan");
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class ServerModpacks extends ServerNodeCalls {
  constructor(
    db: Db,
    id: string,
    private readonly user: SessionUser,
    /** The caller is the server's owner or an administrator: the node keeps them a place for reading and taking packs (core/contract's keptForOwners). */
    private readonly owners = false,
  ) {
    super(db, id);
  }

  /** The mark of an owner's or administrator's call on the node's kept places. */
  private ownersHeaders(): Record<string, string> {
    return this.owners ? { [OWNERS_CALL_HEADER]: "1" } : {};
  }

  /**
   * Modpacks for the server's mod loader (ErrModPlatformUnknown on a server without one: a pack
   * needs it): Modrinth's for its Minecraft version too; CurseForge's for any (laid onto the server,
   * a CurseForge pack brings its own Minecraft version).
   */
  async search(params: { q?: string; sort?: string; page?: string; source?: string }): Promise<SearchAnswer> {
    const platform = await this.modLoader();
    if (packSourceOf(params.source) === "curseforge") {
      const page = pageOf(params.page);
      const client = (await sourceClient(this.db, "curseforge")) as CurseForgeClient;
      const answer = await client.search({ query: queryOf(params.q), classId: CLASS.modpacks, loaders: LOADERS_OF[platform.platform], gameVersion: null, sort: sortOf(params.sort), offset: (page.number - 1) * page.size, limit: page.size });
      return { hits: answer.hits.map((p) => projectHit("curseforge", p)), total: answer.total };
    }
    const facets: string[][] = [["project_type:modpack"], LOADERS_OF[platform.platform].map((l) => `categories:${l}`)];
    if (platform.gameVersion) facets.push([`versions:${platform.gameVersion}`]);
    const page = pageOf(params.page);
    const answer = await (await this.modrinth()).search({ query: queryOf(params.q), facets, index: sortOf(params.sort), offset: (page.number - 1) * page.size, limit: page.size });
    return { hits: answer.hits.map(hit), total: answer.total_hits };
  }

  /**
   * The modpack the server has (null: none), and, for one from Modrinth, its newest release for the
   * server's loader and game version when that is another version (null when the source does not
   * answer: the pack stands as it is).
   */
  async installed(): Promise<{ pack: InstalledPack | null; update: { versionId: string; versionNumber: string } | null }> {
    const platform = await this.modLoader();
    const { pack } = (await (await this.call("modsPackInstalled")).json()) as { pack: InstalledPack | null };
    if (!pack?.origin) return { pack, update: null };
    try {
      const versions = await (await this.modrinth()).versions(pack.origin.projectId, LOADERS_OF[platform.platform], platform.gameVersion);
      const latest = newestVersion(versions);
      return { pack, update: latest && latest.id !== pack.origin.versionId ? { versionId: latest.id, versionNumber: latest.version_number } : null };
    } catch {
      return { pack, update: null };
    }
  }

  /** Hands a .mrpack of the user's to the node (streamed; at most MAX_PACK_BYTES): its id and SHA-512, for a plan to name. */
  async upload(body: ReadableStream<Uint8Array> | null, signal?: AbortSignal): Promise<{ upload: string; size: number; sha512: string }> {
    await this.modLoader();
    // @ts-expect-error Bun's fetch needs duplex for a streamed request body
    const answer = await this.call("modsPackUpload", {}, { headers: { "content-type": "application/octet-stream", ...this.ownersHeaders() }, body, signal, duplex: "half" });
    return (await answer.json()) as { upload: string; size: number; sha512: string };
  }

  /**
   * Plans installing a version of a pack (its newest release when none is named), or an uploaded
   * pack ({upload, sha512}); a CurseForge pack is a switch of the server's template (the version
   * plan of ./versions, applied and undone as one).
   */
  async plan(body: { source?: unknown; projectId?: unknown; versionId?: unknown; upload?: unknown; sha512?: unknown }): Promise<PackPlan | VersionPlan> {
    if (body.upload !== undefined) return this.planUpload(body.upload, body.sha512);
    if (packSourceOf(body.source) === "curseforge") {
      await this.modLoader();
      return new ServerVersions(this.db, this.id, this.user).planPackOnto(body);
    }
    const projectId = checkedId(body.projectId);
    const versionId = body.versionId === undefined ? undefined : checkedId(body.versionId, "versionId");
    const platform = await this.modLoader();
    const client = await this.modrinth();
    const project = await client.project(projectId);
    if (project.project_type !== "modpack") throw new KilnError("ErrFieldNotBetween", { field: "projectId" });
    const version = versionId ? await client.version(versionId) : newestVersion(await client.versions(project.id, [], null));
    // A version of another project (a forged or mistaken id) is not this pack's.
    if (!version || version.project_id !== project.id) throw new KilnError("ErrNotFound", { id: versionId ?? projectId });
    const pack = packFile(version);
    return this.keep(platform, { source: "modrinth", projectId: project.id, versionId: version.id, title: project.title, versionNumber: version.version_number, pack }, await this.read(pack));
  }

  /** Plans an uploaded pack ({upload, sha512} as the upload answered). */
  async planUpload(upload: unknown, sha512: unknown): Promise<PackPlan> {
    if (typeof upload !== "string" || !UPLOAD_ID.test(upload)) throw new KilnError("ErrFieldRequired", { field: "upload" });
    if (typeof sha512 !== "string" || !SHA512.test(sha512)) throw new KilnError("ErrFieldRequired", { field: "sha512" });
    const platform = await this.modLoader();
    const pack = { upload, sha512 };
    const reading = await this.read(pack);
    // An uploaded pack is named by its own index (text of its author's, shown as text).
    return this.keep(platform, { source: "file", projectId: null, versionId: null, title: reading.name, versionNumber: reading.versionId, pack }, reading);
  }

  /** What the pack lays over the folder, as the node reads it from the pack itself. */
  private async read(pack: PackPlan["pack"]): Promise<PackReading> {
    return (await (await this.send("modsPackRead", {}, { ...pack, note: "" }, this.ownersHeaders())).json()) as PackReading;
  }

  /** The plan of a pack as the node read it, with whether it runs on this server; kept for its maker. */
  private keep(platform: PlatformInfo, what: Pick<PackPlan, "source" | "projectId" | "versionId" | "title" | "versionNumber" | "pack">, reading: PackReading): Promise<PackPlan> {
    const { loader, loaderVersion, gameVersion } = packPlatform(reading);
    const warnings = packMisfits(platform, what.title, { loader, gameVersion });
    return plans.keep(this.db, this.id, this.user.id, { planId: randomUUID(), ...what, loader, loaderVersion, gameVersion, files: reading.files, overrides: reading.overrides, removes: reading.removes, warnings, blocked: warnings.length > 0 });
  }

  /** Sends the plan's pack to the node, which reads it again and places it; the plan is used up. */
  async apply(planId: string): Promise<ChangeStatus> {
    const plan = await plans.take(this.db, this.id, this.user.id, planId);
    if (plan.blocked) throw new KilnError("ErrModPlanBlocked");
    // A pack from a source is kept with where it came from, so its updates can be found.
    const origin = plan.source === "modrinth" && plan.projectId && plan.versionId ? { source: "modrinth" as const, projectId: plan.projectId, versionId: plan.versionId, title: plan.title, versionNumber: plan.versionNumber } : undefined;
    const change: PackChange = { ...plan.pack, ...(origin ? { origin } : {}), note: `modpack ${plan.title} ${plan.versionNumber}`.slice(0, 200) };
    return (await (await this.send("modsPack", {}, change, { "x-kiln-by": backupBy(this.user) })).json()) as ChangeStatus;
  }

  /** What the server runs, when it is a mod loader (a pack needs one): else ErrModPlatformUnknown. */
  private async modLoader(): Promise<PlatformInfo & { platform: NonNullable<PlatformInfo["platform"]> }> {
    const platform = (await (await this.call("modsPlatform")).json()) as PlatformInfo;
    if (!platform.platform || addonFolder(platform.platform) !== "mods") throw new KilnError("ErrModPlatformUnknown");
    return platform as PlatformInfo & { platform: NonNullable<PlatformInfo["platform"]> };
  }

  private async modrinth(): Promise<ModrinthClient> {
    return new ModrinthClient(await sourceUrl(this.db, "modrinth"));
  }
}

/** The server's modpacks for `user`, once they hold manageMods on it. */
export async function modpacksFor(db: Db, user: SessionUser, id: string): Promise<ServerModpacks> {
  const access = await authorize(db, user, id, "manageMods");
  return new ServerModpacks(db, id, user, await speaksForOwners(db, user, access, id));
}
