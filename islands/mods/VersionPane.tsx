// The Minecraft version of the server and the switch to another (GET …/mods/versions, read once
// the tab is live): a list of the versions the template's variable takes or the source lists, and
// a button that opens the plan dialog for the one chosen. A template that names no version
// variable gets a sentence saying how to change the version instead. When the template also names
// the variable of the loader's own version (a Paper build, a Fabric loader), a second list switches
// that for the same Minecraft; when it installs a CurseForge modpack, a third switches the pack's
// file. Without script the pane is a form with the Minecraft version typed (the plan checks it is
// one the server can switch to); the loader's and the pack's lists need the answer.
import { useEffect, useState, type ReactNode } from "react";
import type { LoaderVersions, PackFiles, Platform, PlatformChoice, SwitchKind, VersionsAnswer } from "../../core/mods/types";
import type { Translate } from "../../core/i18n/translate";
import { useT } from "../lib/i18n";
import { shownLabel } from "../../core/text/shown-label";
import type { ModsApi } from "./mods-api";
import { errorSentence } from "./say-error";
import { modsFormBase } from "./ActionForm";

export interface VersionPaneProps {
  serverId: string;
  mods: ModsApi;
  hydrated: boolean;
  /** A switch was chosen: the plan dialog opens with `title`. */
  onPlan(what: SwitchKind, version: string, title: string): void;
}

/** A loader version as shown: the words a template's variable takes (`latest`, Forge's `recommended`) say what they mean. */
export const loaderVersionText = (t: Translate, version: string) => (version === "latest" ? t("mods.versions.newest") : version === "recommended" ? t("mods.versions.recommended") : version);

export function VersionPane({ serverId, mods, hydrated, onPlan }: VersionPaneProps) {
  const t = useT();
  const [answer, setAnswer] = useState<VersionsAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!hydrated) return;
    mods.versions().then(
      (found) => setAnswer(found),
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
      {/* A CurseForge pack's server says nothing of a variable: its pack's file sets the version. */}
      {answer && !answer.variable && !answer.pack ? <p className="muted" data-testid="mods-versions-unavailable">{t("mods.versions.unavailable")}</p> : null}
      {answer?.variable ? (
        <SwitchForm
          what="game"
          testId="mods-versions"
          label={t("mods.versions.choose")}
          options={answer.versions.map((v) => ({ value: v, text: v }))}
          current={answer.gameVersion ?? ""}
          dir="ltr"
          unavailable={null}
          none={answer.versions.some((v) => v !== answer.gameVersion) ? null : t("mods.versions.none")}
          title={(option) => t("mods.versions.planTitle", { version: option.value })}
          onPlan={onPlan}
        />
      ) : null}
      {answer?.loader && answer.platform ? <LoaderForm loader={answer.loader} platform={answer.platform} onPlan={onPlan} /> : null}
      {answer?.pack ? <PackForm pack={answer.pack} onPlan={onPlan} /> : null}
      {answer && answer.platform && answer.platforms.length > 0 ? <PlatformForm current={answer.platform} platforms={answer.platforms} onPlan={onPlan} /> : null}
    </section>
  );
}

/** The loader's own versions for the Minecraft version the server runs, the value now marked and not chosen. */
function LoaderForm({ loader, platform, onPlan }: { loader: LoaderVersions; platform: Platform; onPlan: VersionPaneProps["onPlan"] }) {
  const t = useT();
  const name = t(`mods.platform.${platform}`);
  return (
    <SwitchForm
      what="loader"
      testId="mods-loader"
      label={t("mods.versions.loaderChoose", { platform: name })}
      options={loader.versions.map((v) => ({ value: v, text: loaderVersionText(t, v) }))}
      current={loader.value}
      dir="ltr"
      unavailable={loader.unavailable ? t("mods.versions.loaderUnavailable", { platform: name }) : null}
      none={loader.versions.length === 0 ? t("mods.versions.loaderNone", { platform: name }) : null}
      title={(option) => t("mods.versions.loaderPlanTitle", { platform: name, version: option.text })}
      onPlan={onPlan}
    />
  );
}

/** The CurseForge pack's files with a server pack, newest first, the one installed now marked and not chosen. */
function PackForm({ pack, onPlan }: { pack: PackFiles; onPlan: VersionPaneProps["onPlan"] }) {
  const t = useT();
  return (
    <SwitchForm
      what="pack"
      testId="mods-pack-files"
      label={<bdi>{t("mods.versions.packChoose", { title: shownLabel(pack.title) })}</bdi>}
      options={pack.files.map((f) => ({ value: f.id, text: shownLabel(f.name) }))}
      current={pack.value}
      dir="auto"
      unavailable={pack.unavailable ? t("mods.versions.packUnavailable", { title: shownLabel(pack.title) }) : null}
      none={pack.files.some((f) => f.id !== pack.value) ? null : t("mods.versions.packNone", { title: shownLabel(pack.title) })}
      title={(option) => t("mods.versions.packPlanTitle", { title: shownLabel(pack.title), version: option.text })}
      onPlan={onPlan}
    />
  );
}

/** The platforms the server can switch to, by the templates that install them (their names), the one it runs marked and not chosen. */
function PlatformForm({ current, platforms, onPlan }: { current: Platform; platforms: PlatformChoice[]; onPlan: VersionPaneProps["onPlan"] }) {
  const t = useT();
  const name = (platform: Platform) => t(`mods.platform.${platform}`);
  return (
    <SwitchForm
      what="platform"
      testId="mods-platforms"
      label={t("mods.versions.platformChoose")}
      options={[{ value: "", text: name(current) }, ...platforms.map((p) => ({ value: p.template, text: p.display }))]}
      current=""
      dir="auto"
      unavailable={null}
      none={null}
      title={(option) => t("mods.versions.platformPlanTitle", { platform: name(platforms.find((p) => p.template === option.value)?.platform ?? current) })}
      onPlan={onPlan}
    />
  );
}

interface SwitchOption {
  value: string;
  text: string;
}

/**
 * A list of what the server can switch to (`testId`-form, -select, -plan; -unavailable and -none
 * for the sentences said instead), the value now marked and not chosen, and the button that plans
 * the switch to the one chosen.
 */
function SwitchForm(props: {
  what: SwitchKind;
  testId: string;
  label: ReactNode;
  options: SwitchOption[];
  current: string;
  dir: "ltr" | "auto";
  unavailable: string | null;
  none: string | null;
  title(option: SwitchOption): string;
  onPlan: VersionPaneProps["onPlan"];
}) {
  const t = useT();
  const { options, current, testId } = props;
  const [chosen, setChosen] = useState(options.find((o) => o.value !== current)?.value ?? "");
  if (props.unavailable) return <p className="muted" data-testid={`${testId}-unavailable`}>{props.unavailable}</p>;
  if (props.none) return <p className="muted" data-testid={`${testId}-none`}>{props.none}</p>;
  const option = options.find((o) => o.value === chosen);
  return (
    <form
      className="mods-versions-form"
      data-testid={`${testId}-form`}
      onSubmit={(e) => {
        e.preventDefault();
        if (option) props.onPlan(props.what, option.value, props.title(option));
      }}
    >
      <label className="field">
        <span className="field-label">{props.label}</span>
        <select value={chosen} onChange={(e) => setChosen(e.currentTarget.value)} data-testid={`${testId}-select`} dir={props.dir}>
          {options.map((o) => (
            <option key={o.value} value={o.value} disabled={o.value === current}>
              {o.value === current ? t("mods.versions.current", { version: o.text }) : o.text}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="btn" disabled={!chosen} data-testid={`${testId}-plan`}>
        {t("mods.versions.plan")}
      </button>
    </form>
  );
}
