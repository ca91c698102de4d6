// One project from the source, opened from the browse pane: its description, its page (Markdown
// from its authors, rendered by islands/lib/Markdown as elements and text only, never as HTML),
// licence and downloads, and its versions for this server's loader, each marked when it fits this
// server's Minecraft version. Install takes the newest fitting version; a version's own button
// installs that one (a plan warns when it does not fit).
import { useEffect, useState } from "react";
import { useT } from "../lib/i18n";
import { Markdown } from "../lib/Markdown";
import { Overlay } from "../files/Overlay";
import { Avatar } from "./Avatar";
import { ShownLabel } from "../lib/ShownLabel";
import { shownLabel } from "../../core/text/shown-label";
import { browseSource, type ModsApi, type ProjectAnswer, type SearchHit } from "./mods-api";
import { Notice } from "./Notice";
import { errorSentence } from "./say-error";
import { ActionForm, modsFormBase } from "./ActionForm";

/** Game versions named per version (its newest); the rest are summed up as "…". */
const SHOWN_GAME_VERSIONS = 4;

export interface ProjectDialogProps {
  serverId: string;
  mods: ModsApi;
  /** the hit it was opened from: its title shows while the project loads */
  hit: Pick<SearchHit, "projectId" | "title" | "source">;
  onClose(): void;
  onInstall(project: { projectId: string; title: string }, version?: { versionId: string; versionNumber: string }): void;
}

type Loaded = { kind: "loading" } | { kind: "failed"; message: string } | { kind: "ready"; project: ProjectAnswer };

export function ProjectDialog({ serverId, mods, hit, onClose, onInstall }: ProjectDialogProps) {
  const t = useT();
  const [loaded, setLoaded] = useState<Loaded>({ kind: "loading" });
  useEffect(() => {
    let current = true;
    mods.project(hit.projectId, browseSource(hit.source)).then(
      (project) => current && setLoaded({ kind: "ready", project }),
      async (error: unknown) => {
        const message = await errorSentence(error);
        if (current) setLoaded({ kind: "failed", message });
      },
    );
    return () => void (current = false);
  }, [mods, hit.projectId, hit.source]);

  const title = loaded.kind === "ready" ? loaded.project.title : hit.title;
  return (
    <Overlay title={<ShownLabel text={title} hint={t("common.hiddenCharacters")} dir="auto" />} label={shownLabel(title)} onClose={onClose} className="mods-overlay mods-project" testId="mods-project-dialog">
      {loaded.kind === "loading" ? (
        <p className="muted" aria-busy="true">
          {t("mods.project.loading")}
        </p>
      ) : null}
      {loaded.kind === "failed" ? <Notice kind="error">{loaded.message}</Notice> : null}
      {loaded.kind === "ready" ? <ProjectBody serverId={serverId} project={loaded.project} hydrated onInstall={onInstall} /> : null}
    </Overlay>
  );
}

/** A project's page: in the dialog once the tab is live, and as the tab's own card without script (`hydrated` false: its Install buttons are forms). */
export function ProjectBody({ serverId, project, hydrated, onInstall }: { serverId: string; project: ProjectAnswer; hydrated: boolean; onInstall: ProjectDialogProps["onInstall"] }) {
  const t = useT();
  const fitting = project.versions.some((v) => v.fits);
  const who = { projectId: project.projectId, title: project.title };
  const plan = `${modsFormBase(serverId)}/plan`;
  return (
    <div className="stack mods-project-body">
      <div className="mods-project-head">
        <Avatar id={project.projectId} title={project.title} size="lg" />
        <div className="stack mods-project-facts">
          <p><ShownLabel text={project.description} hint={t("common.hiddenCharacters")} dir="auto" /></p>
          <p className="muted small">
            <span>{t("mods.browse.downloads", { count: project.downloads })}</span>
            {project.license ? <span> · {t("mods.project.license", { license: project.license })}</span> : null}
          </p>
        </div>
        <ActionForm action={plan} fields={{ source: project.source, projectId: project.projectId }} hydrated={hydrated} onAct={() => onInstall(who)}>
          <button type="submit" className="btn btn-primary" disabled={project.versions.length === 0} data-testid="mods-install">
            {t("mods.project.install")}
          </button>
        </ActionForm>
      </div>
      {project.versions.length === 0 ? <Notice kind="warning">{t("mods.project.noVersions")}</Notice> : !fitting ? <Notice kind="warning">{t("mods.project.noneFits")}</Notice> : null}
      <Markdown source={project.body} className="mods-project-text" headingBase={3} />
      {project.versions.length > 0 ? (
        <section className="stack mods-versions">
          <h3>{t("mods.project.versions")}</h3>
          <ul className="list">
            {project.versions.map((v) => (
              <li key={v.versionId} className="list-row mods-version" data-version={v.versionId}>
                <div>
                  <strong><ShownLabel text={v.versionNumber} hint={t("common.hiddenCharacters")} /></strong>
                  <span className="muted small">
                    {t(`mods.project.type.${v.versionType}`)} · <span dir="ltr">{gameVersions(v.gameVersions)}</span>
                  </span>
                </div>
                <div className="mods-version-actions">
                  {v.fits ? <span className="badge badge-on">{t("mods.project.fits")}</span> : <span className="badge">{t("mods.project.otherVersion")}</span>}
                  <ActionForm action={plan} fields={{ source: project.source, projectId: project.projectId, versionId: v.versionId }} hydrated={hydrated} onAct={() => onInstall(who, v)}>
                    <button type="submit" className="btn" aria-label={t("mods.project.installVersionLabel", { version: shownLabel(v.versionNumber) })}>
                      {t("mods.project.installVersion")}
                    </button>
                  </ActionForm>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** A version's game versions, the newest few: "1.20.4, 1.20.3 …". */
function gameVersions(list: string[]): string {
  const newest = [...list].reverse().slice(0, SHOWN_GAME_VERSIONS);
  return newest.join(", ") + (list.length > SHOWN_GAME_VERSIONS ? " …" : "");
}
