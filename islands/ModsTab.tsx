// The Mods tab (Plugins on Paper, Purpur and Spigot) of a Minecraft Java server, for holders of
// manageMods: what is installed (server-rendered, so it shows before any script), the undo of the
// last change, a browse pane searching the source (Modrinth) for this server, a project's page, and
// the plan dialog where every change is confirmed and followed to its end; on a mod loader, a
// second pane finds modpacks, whose plans the same dialog confirms; a version pane switches the
// server's Minecraft version, through the same dialog. All of it through
// /api/servers/{id}/mods (islands/mods/mods-api); the parts live in islands/mods/.
import { useEffect, useMemo, useState } from "react";
import { PACK_SOURCES, type AddonKind } from "../core/mods/types";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { shownLabel } from "../core/text/shown-label";
import { reportError } from "./shell/report-error";
import { showToast } from "./shell/toasts";
import { BrowsePane, type InitialSearch } from "./mods/BrowsePane";
import { InstalledList } from "./mods/InstalledList";
import { browseSource, modsApi, type BrowseSource, type InstalledEntry, type SearchHit } from "./mods/mods-api";
import { PlanDialog, type PlanRequest } from "./mods/PlanDialog";
import { ProjectDialog } from "./mods/ProjectDialog";
import { UndoBanner } from "./mods/UndoBanner";
import { VersionPane } from "./mods/VersionPane";
import { followChange } from "./mods/follow-change";
import { changeErrorSentence, errorSentence } from "./mods/say-error";

export interface ModsTabProps {
  serverId: string;
  /** where this server's add-ons go: names the lists (mods or plugins) */
  folder: AddonKind;
  /** the sources its add-ons can come from (core/mods/types browseSourcesFor), the first the default */
  sources: readonly BrowseSource[];
  /** the installed files as the server listed them; null when it could not (error says why) */
  installed: InstalledEntry[] | null;
  error: string | null;
  /** the change that can be undone, if any */
  undoable: string | null;
  /** searches the page made from a form sent without script (add-ons, modpacks) */
  initialSearch?: InitialSearch;
  initialPackSearch?: InitialSearch;
}

type Dialog = { kind: "project"; hit: Pick<SearchHit, "projectId" | "title" | "source"> } | { kind: "plan"; title: string; request: PlanRequest };

/** The whole tab read again: after a version switch or its undo, the platform heading and every list change. */
const reloadPage = () => window.location.reload();

function ModsTabView(props: ModsTabProps) {
  const t = useT();
  const mods = useMemo(() => modsApi(props.serverId), [props.serverId]);
  const [installed, setInstalled] = useState(props.installed);
  const [error, setError] = useState(props.error);
  const [undoable, setUndoable] = useState(props.undoable);
  const [hydrated, setHydrated] = useState(false);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [undoing, setUndoing] = useState(false);
  const [installedPack, setInstalledPack] = useState<Awaited<ReturnType<typeof mods.installedPack>> | null>(null);
  /** A version switch was made: the page's heading (rendered on the server) names the old version until it is read again. */
  const [switched, setSwitched] = useState(false);
  useEffect(() => setHydrated(true), []);

  /** The installed modpack and its update, on a mod loader (a failure leaves the line out: the rest stands). */
  async function refreshPack() {
    if (props.folder !== "mods") return;
    setInstalledPack(await mods.installedPack().catch(() => null));
  }
  useEffect(() => {
    if (hydrated) void refreshPack();
  }, [hydrated]);

  async function refresh() {
    void refreshPack();
    try {
      const [files, changes] = await Promise.all([mods.installed(), mods.changes()]);
      setInstalled(files);
      setUndoable(changes.undoable);
      setError(null);
    } catch (failure) {
      setError(await errorSentence(failure));
    }
  }

  /** Follows a change started by `start` to its end; a failure is said in a toast. */
  async function change(start: () => Promise<Parameters<typeof followChange>[1]>, doneKey?: string) {
    try {
      const status = await followChange(mods, await start());
      if (status.state === "failed") showToast(await changeErrorSentence(status.error), { error: true });
      else if (status.switchTo !== undefined) return reloadPage();
      else if (doneKey) showToast(t(doneKey));
    } catch (failure) {
      await reportError(failure);
    }
    await refresh();
  }

  async function undo(changeId: string) {
    setUndoing(true);
    await change(() => mods.undo(changeId), "mods.undo.done");
    setUndoing(false);
  }

  async function setEnabled(entry: InstalledEntry, enabled: boolean) {
    setBusy((b) => new Set(b).add(entry.fileName));
    await change(() => mods.setEnabled([entry.fileName], enabled));
    setBusy((b) => {
      const next = new Set(b);
      next.delete(entry.fileName);
      return next;
    });
  }

  // Titles and version names come from the sources: in sentences with their escapes (core/text/shown-label).
  const name = (entry: InstalledEntry) => shownLabel(entry.title ?? entry.fileName);
  return (
    <div className="stack mods-tab" data-testid="mods-island" data-live={hydrated || undefined}>
      {undoable ? <UndoBanner serverId={props.serverId} changeId={undoable} hydrated={hydrated} undoing={undoing} onUndo={() => void undo(undoable)} /> : null}
      <InstalledList
        serverId={props.serverId}
        folder={props.folder}
        installed={installed}
        error={error}
        hydrated={hydrated}
        busy={busy}
        onRefresh={() => void refresh()}
        onUpdate={(entry) => setDialog({ kind: "plan", title: t("mods.plan.titleUpdate", { title: name(entry) }), request: { kind: "install", projectId: entry.projectId!, source: browseSource(entry.source) } })}
        onRemove={(entry) => setDialog({ kind: "plan", title: t("mods.plan.titleRemove", { title: name(entry) }), request: { kind: "remove", fileNames: [entry.fileName] } })}
        onSwitch={(entry, enabled) => void setEnabled(entry, enabled)}
      />
      <VersionPane
        serverId={props.serverId}
        mods={mods}
        hydrated={hydrated}
        onPlan={(what, version, title) => setDialog({ kind: "plan", title, request: { kind: "switch", what, version } })}
      />
      <BrowsePane serverId={props.serverId} mods={mods} folder={props.folder} sources={props.sources} hydrated={hydrated} initial={props.initialSearch} onOpen={(hit) => setDialog({ kind: "project", hit })} />
      {props.folder === "mods" ? (
        <BrowsePane
          serverId={props.serverId}
          initial={props.initialPackSearch}
          mods={mods}
          folder={props.folder}
          kind="packs"
          sources={PACK_SOURCES}
          hydrated={hydrated}
          onOpen={(hit) => setDialog({ kind: "plan", title: t("mods.packs.planTitle", { title: shownLabel(hit.title) }), request: { kind: "pack", projectId: hit.projectId, source: browseSource(hit.source) } })}
          onFile={(file) => setDialog({ kind: "plan", title: t("mods.packs.planTitle", { title: shownLabel(file.name) }), request: { kind: "packFile", file } })}
        >
          {installedPack?.pack ? (
            <div className="mods-pack-installed" data-testid="mods-pack-installed">
              <span dir="auto">{t("mods.packs.installed", { name: shownLabel(installedPack.pack.origin?.title ?? installedPack.pack.name), version: shownLabel(installedPack.pack.origin?.versionNumber ?? installedPack.pack.versionId) })}</span>
              {installedPack.update && installedPack.pack.origin ? (
                <button
                  type="button"
                  className="btn"
                  data-testid="mods-pack-update"
                  onClick={() => {
                    const { origin } = installedPack.pack!;
                    setDialog({ kind: "plan", title: t("mods.packs.planTitle", { title: shownLabel(origin!.title) }), request: { kind: "pack", projectId: origin!.projectId, versionId: installedPack.update!.versionId } });
                  }}
                >
                  {t("mods.packs.update", { version: shownLabel(installedPack.update.versionNumber) })}
                </button>
              ) : null}
            </div>
          ) : null}
        </BrowsePane>
      ) : null}
      {dialog?.kind === "project" ? (
        <ProjectDialog
          serverId={props.serverId}
          mods={mods}
          hit={dialog.hit}
          onClose={() => setDialog(null)}
          onInstall={(project, version) =>
            setDialog({
              kind: "plan",
              title: version ? t("mods.plan.titleInstallVersion", { title: shownLabel(project.title), version: shownLabel(version.versionNumber) }) : t("mods.plan.titleInstall", { title: shownLabel(project.title) }),
              request: { kind: "install", projectId: project.projectId, source: browseSource(dialog.hit.source), ...(version ? { versionId: version.versionId } : {}) },
            })
          }
        />
      ) : null}
      {dialog?.kind === "plan" ? (
        <PlanDialog
          mods={mods}
          title={dialog.title}
          request={dialog.request}
          installed={installed ?? []}
          onClose={() => (dialog.request.kind === "switch" && switched ? reloadPage() : setDialog(null))}
          onChanged={() => {
            if (dialog.request.kind === "switch") setSwitched(true);
            void refresh();
          }}
          onUndo={(changeId) => {
            setDialog(null);
            void undo(changeId);
          }}
        />
      ) : null}
    </div>
  );
}

export default defineIsland({ name: "ModsTab", component: ModsTabView, messages: ["mods.", "common."], hydrate: "load" });
