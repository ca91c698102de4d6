// Mods tab (needs manageMods; Minecraft Java servers only; named Plugins where the platform loads
// plugins): the platform the node read from the server's files as the heading, then the island
// (islands/ModsTab) with the installed list gathered here, so both show before any script. A
// server on which no platform that loads add-ons was recognised (vanilla, or nothing) gets an
// empty state that says what to do instead.
import { browseSourcesFor, type PlatformInfo } from "../../../core/mods/types";
import type { InstalledEntry } from "../../../server/services/mods";
import { usePage } from "../../context";
import { Alert } from "../../components/Alert";
import { EmptyState } from "../../components/EmptyState";
import { Island } from "../../components/Island";
import ModsTabIsland from "../../../islands/ModsTab";
import { settings as platformIcon } from "../../../islands/lib/icons";
import type { ProjectAnswer } from "../../../islands/mods/mods-api";
import type { InitialSearch } from "../../../islands/mods/BrowsePane";
import { ModsPlanCard, ModsProjectCard, type ShownPlan } from "./ModsForms";

export interface ModsTabProps {
  serverId: string;
  /** what the node read from the folder; a message when it could not be asked */
  platform: PlatformInfo | { error: string };
  /** the installed files and the change that can be undone; a message when they could not be listed */
  installed: { files: InstalledEntry[]; undoable: string | null } | { error: string };
  /** Without script: a plan to confirm, a project opened from a search, searches the page made (a message when a source refused). */
  plan?: ShownPlan;
  project?: ProjectAnswer | { error: string };
  search?: InitialSearch | { error: string };
  packSearch?: InitialSearch | { error: string };
}

export function ModsTab({ serverId, platform, installed, plan, project, search, packSearch }: ModsTabProps) {
  const { t } = usePage();
  if ("error" in platform) return <Alert kind="warning">{platform.error}</Alert>;
  if (!platform.folder) {
    return (
      <EmptyState icon={platformIcon} testId="mods-no-platform" message={<strong>{t("mods.noPlatform.title")}</strong>}>
        <p className="empty-state-note">{platform.platform === "vanilla" ? t("mods.noPlatform.vanilla", { gameVersion: platform.gameVersion ?? "" }) : t("mods.noPlatform.unknown")}</p>
        <p className="empty-state-note">{t("mods.noPlatform.what")}</p>
      </EmptyState>
    );
  }
  const game = platform.gameVersion ?? t("mods.unknownGameVersion");
  const name = t(`mods.platform.${platform.platform}`);
  return (
    <div className="stack mods-page" data-testid="mods">
      <section className="card mods-head" data-testid="mods-platform">
        <h2>
          <bdi>{platform.loaderVersion ? t("mods.headingLoader", { platform: name, gameVersion: game, loader: platform.loaderVersion }) : t("mods.heading", { platform: name, gameVersion: game })}</bdi>
        </h2>
        <p className="muted small mods-detected">{platform.detectedFrom === "template" ? t("mods.detectedFromTemplate") : t("mods.detectedFrom", { path: platform.detectedFrom })}</p>
      </section>
      {plan ? <ModsPlanCard serverId={serverId} shown={plan} installed={"files" in installed ? installed.files : []} /> : null}
      {project && "error" in project ? <Alert kind="warning">{project.error}</Alert> : project ? <ModsProjectCard serverId={serverId} project={project} /> : null}
      {[search, packSearch].map((s, i) => (s && "error" in s ? <Alert key={i} kind="warning">{s.error}</Alert> : null))}
      <Island
        island={ModsTabIsland}
        props={{
          serverId,
          folder: platform.folder,
          sources: browseSourcesFor(platform.platform),
          installed: "files" in installed ? installed.files : null,
          error: "error" in installed ? installed.error : null,
          undoable: "files" in installed ? installed.undoable : null,
          ...(search && !("error" in search) ? { initialSearch: search } : {}),
          ...(packSearch && !("error" in packSearch) ? { initialPackSearch: packSearch } : {}),
        }}
      />
    </div>
  );
}
