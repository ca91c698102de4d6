// The Minecraft version of the server and the switch to another (GET …/mods/versions, read once
// the tab is live): a list of the versions the template's variable takes or the source lists, and
// a button that opens the plan dialog for the one chosen. A template that names no version
// variable gets a sentence saying how to change the version instead. Without script the pane is a
// form with the version typed (the plan checks it is one the server can switch to).
import { useEffect, useState } from "react";
import type { VersionsAnswer } from "../../core/mods/types";
import { useT } from "../lib/i18n";
import type { ModsApi } from "./mods-api";
import { errorSentence } from "./say-error";
import { modsFormBase } from "./ActionForm";

export function VersionPane({ serverId, mods, hydrated, onPlan }: { serverId: string; mods: ModsApi; hydrated: boolean; onPlan(gameVersion: string): void }) {
  const t = useT();
  const [answer, setAnswer] = useState<VersionsAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState("");
  useEffect(() => {
    if (!hydrated) return;
    mods.versions().then(
      (found) => {
        setAnswer(found);
        setChosen(found.versions.find((v) => v !== found.gameVersion) ?? "");
      },
      async (failure: unknown) => setError(await errorSentence(failure)),
    );
  }, [hydrated, mods]);
  return (
    <section className="card stack mods-versions" data-testid="mods-versions">
      <h2>{t("mods.versions.title")}</h2>
      {error ? <p className="muted">{error}</p> : null}
      {hydrated ? null : (
        <form className="mods-versions-form" method="post" action={`${modsFormBase(serverId)}/versions/plan`}>
          <label className="field">
            <span className="field-label">{t("mods.versions.choose")}</span>
            <input type="text" name="gameVersion" required maxLength={64} dir="ltr" placeholder="1.20.1" data-testid="mods-versions-typed" />
          </label>
          <button type="submit" className="btn">{t("mods.versions.plan")}</button>
        </form>
      )}
      {answer && !answer.variable ? <p className="muted" data-testid="mods-versions-unavailable">{t("mods.versions.unavailable")}</p> : null}
      {answer?.variable ? (
        <form
          className="mods-versions-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (chosen) onPlan(chosen);
          }}
        >
          <label className="field">
            <span className="field-label">{t("mods.versions.choose")}</span>
            <select value={chosen} onChange={(e) => setChosen(e.currentTarget.value)} data-testid="mods-versions-select" dir="ltr">
              {answer.versions.map((v) => (
                <option key={v} value={v} disabled={v === answer.gameVersion}>
                  {v === answer.gameVersion ? t("mods.versions.current", { version: v }) : v}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="btn" disabled={!chosen} data-testid="mods-versions-plan">
            {t("mods.versions.plan")}
          </button>
        </form>
      ) : null}
    </section>
  );
}
