// The Mods tab's calls to /api/servers/{id}/mods/… (server/routes/server-mods.ts), typed with the
// answers' shapes as the service gives them; the same API an API client uses.
import type { ChangeStatus } from "../../core/mods/change";
import { BROWSE_SOURCES, SWITCH_FIELD, type BrowseSource, type Plan, type SwitchKind, type VersionPlan, type VersionsAnswer } from "../../core/mods/types";
import type { InstalledPack, PackPlan } from "../../core/mods/pack";
import type { InstalledEntry, SearchAnswer, ServerMods } from "../../server/services/mods";
import { api } from "../lib/api";

export type { InstalledEntry, SearchAnswer };
export type SearchHit = SearchAnswer["hits"][number];
export type ProjectAnswer = Awaited<ReturnType<ServerMods["project"]>>;
export type ProjectVersion = ProjectAnswer["versions"][number];

export const SORTS = ["relevance", "downloads", "updated", "newest"] as const;
export { BROWSE_SOURCES, type BrowseSource } from "../../core/mods/types";
export type Sort = (typeof SORTS)[number];
/** The browse source an entry or hit came from (Modrinth when it names none the browser searches). */
export const browseSource = (source: string | undefined): BrowseSource => BROWSE_SOURCES.find((s) => s === source) ?? "modrinth";
/** Hits on a page of results: the service asks its source for 20 at a time. */
export const PAGE_SIZE = 20;
/** The service reads at most page 500. */
export const MAX_PAGE = 500;

export type ModsApi = ReturnType<typeof modsApi>;

export function modsApi(serverId: string) {
  const base = `/api/servers/${encodeURIComponent(serverId)}/mods`;
  const packs = `/api/servers/${encodeURIComponent(serverId)}/modpacks`;
  const id = encodeURIComponent;
  return {
    installed: () => api<InstalledEntry[]>("GET", `${base}/installed`),
    changes: () => api<{ undoable: string | null }>("GET", `${base}/changes`),
    /** `category`: "" for any. */
    search: (q: string, sort: Sort, page: number, category = "", source: BrowseSource = "modrinth") =>
      api<SearchAnswer>("GET", `${base}/search?${new URLSearchParams({ q, sort, page: String(page), source, ...(category ? { category } : {}) })}`),
    project: (projectId: string, source: BrowseSource = "modrinth") => api<ProjectAnswer>("GET", `${base}/projects/${id(projectId)}?source=${source}`),
    planInstall: (projectId: string, versionId?: string, source: BrowseSource = "modrinth") => api<Plan>("POST", `${base}/plan`, { source, projectId, ...(versionId ? { versionId } : {}) }),
    planRemove: (fileNames: string[], withUnneededDependencies: boolean) => api<Plan>("POST", `${base}/remove`, { fileNames, withUnneededDependencies }),
    apply: (planId: string) => api<ChangeStatus>("POST", `${base}/plan/${id(planId)}/apply`),
    setEnabled: (fileNames: string[], enabled: boolean) => api<ChangeStatus>("POST", `${base}/enabled`, { fileNames, enabled }),
    change: (changeId: string) => api<ChangeStatus>("GET", `${base}/changes/${id(changeId)}`),
    undo: (changeId: string) => api<ChangeStatus>("POST", `${base}/changes/${id(changeId)}/undo`),
    searchPacks: (q: string, sort: Sort, page: number, source: BrowseSource = "modrinth") => api<SearchAnswer>("GET", `${packs}/search?${new URLSearchParams({ q, sort, page: String(page), source })}`),
    /** A CurseForge pack is planned as a switch of the server's template (a version plan). */
    planPack: (projectId: string, versionId?: string, source: BrowseSource = "modrinth") => api<PackPlan | VersionPlan>("POST", `${packs}/plan`, { source, projectId, ...(versionId ? { versionId } : {}) }),
    installedPack: () => api<{ pack: InstalledPack | null; update: { versionId: string; versionNumber: string } | null }>("GET", `${packs}/installed`),
    /** A .mrpack of the user's: handed to the node, then planned from the node's copy. */
    planPackFile: async (file: Blob) => {
      const stored = await api<{ upload: string; sha512: string }>("POST", `${packs}/uploads`, file);
      return api<PackPlan>("POST", `${packs}/plan`, { upload: stored.upload, sha512: stored.sha512 });
    },
    applyPack: (planId: string) => api<ChangeStatus>("POST", `${packs}/plan/${id(planId)}/apply`),
    versions: () => api<VersionsAnswer>("GET", `${base}/versions`),
    planSwitch: (what: SwitchKind, version: string) => api<VersionPlan>("POST", `${base}/versions/plan`, { [SWITCH_FIELD[what]]: version }),
    applySwitch: (planId: string) => api<ChangeStatus>("POST", `${base}/versions/plan/${id(planId)}/apply`),
  };
}
