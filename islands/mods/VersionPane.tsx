// The Minecraft version of the server and the switch to another (GET …/mods/versions, read once
// the tab is live): a list of the versions the template's variable takes or the source lists, and
// a button that opens the plan dialog for the one chosen. A template that names no version
// variable gets a sentence saying how to change the version instead.
import { useEffect, useState } from "react";
import type { VersionsAnswer } from "../../core/mods/types";
import { useT } from "../lib/i18n";
import type { ModsApi } from "./mods-api";
import { errorSentence } from "./say-error";

export function VersionPane({ mods, hydrated, onPlan }: { mods: ModsApi; hydrated: boolean; onPlan(gameVersion: string): void }) {
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
