// Language picker overlay (spec section 2): one button per locale with its flag, and a link to
// the translation project. Plain HTML: <details> opens it, each button posts the choice.
import { LOCALES, flagEmoji, htmlLang, languageOf, type Locale } from "../../core/i18n/locales";
import { intlTag, type Translate } from "../../core/i18n/translate";
import { completeness } from "../../locales/tables";
import { Icon } from "../../islands/lib/Icon";
import { close, translate } from "../../islands/lib/icons";
import { usePage } from "../context";
import type { ReactElement } from "react";

const displayNames = new Map<string, Intl.DisplayNames>();

/** The language in its own words; the region only where Kiln offers several ("Português (Brasil)"). */
function nativeName(locale: string): string {
  const lang = languageOf(locale);
  const ambiguous = LOCALES.filter((l) => l.startsWith(`${lang}_`)).length > 1;
  const tag = ambiguous ? intlTag(locale) : lang;
  let names = displayNames.get(tag);
  if (!names) {
    names = new Intl.DisplayNames([tag], { type: "language" });
    displayNames.set(tag, names);
  }
  const name = names.of(tag) ?? tag;
  return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
}

/** "100 % translated", or "partly translated: 0 %" for a locale whose pages read in English. */
function completenessLabel(locale: Locale, t: Translate, percent: Intl.NumberFormat): string {
  const share = completeness(locale);
  return t(share === 1 ? "language.complete" : "language.partial", { percent: percent.format(share) });
}

/**
 * The picker's buttons for a page in `current`: the same for every page in that locale, so made
 * once per locale (names, flags and shares cost more than the rest of a login page).
 */
const buttonsByLocale = new Map<Locale, ReactElement[]>();

function localeButtons(current: Locale, t: Translate): ReactElement[] {
  let buttons = buttonsByLocale.get(current);
  if (buttons) return buttons;
  const percent = new Intl.NumberFormat(htmlLang(current), { style: "percent" });
  buttons = LOCALES.map((locale) => (
    <button
      key={locale}
      type="submit"
      name="locale"
      value={locale}
      lang={htmlLang(locale)}
      className={locale === current ? "lang-btn active" : "lang-btn"}
      aria-current={locale === current ? "true" : undefined}
    >
      <span className="flag" aria-hidden="true">{flagEmoji(locale)}</span>
      <span className="lang-name">{nativeName(locale)}</span>
      <small className="muted">{completenessLabel(locale, t, percent)}</small>
    </button>
  ));
  buttonsByLocale.set(current, buttons);
  return buttons;
}

export function LanguagePicker() {
  const page = usePage();
  return (
    <details className="menu lang-menu" data-close-on-escape="">
      <summary className="icon-btn" title={page.t("language.picker")} aria-label={page.t("language.picker")}>
        <Icon path={translate} />
        <span className="lang-current" aria-hidden="true">{flagEmoji(page.locale)}</span>
      </summary>
      <div className="overlay-backdrop" />
      <div className="overlay lang-overlay" role="dialog" aria-label={page.t("language.choose")}>
        <div className="overlay-head">
          <h2>{page.t("language.choose")}</h2>
          <button type="button" className="icon-btn" data-close-details="" aria-label={page.t("language.close")}>
            <Icon path={close} />
          </button>
        </div>
        <form method="post" action="/prefs" className="lang-grid">
          <input type="hidden" name="back" value={page.backPath} />
          {localeButtons(page.locale, page.t)}
        </form>
        <a className="link" href={page.translationUrl} target="_blank" rel="noopener noreferrer">
          {page.t("language.helpTranslate")}
        </a>
      </div>
    </details>
  );
}
