// Language picker overlay: one button per locale with its flag, and a link to
// the translation project. Plain HTML: <details> opens it, each button posts the choice.
import { LOCALES, flagEmoji, htmlLang, languageOf, type Locale } from "../../core/i18n/locales";
import { intlTag, type Translate } from "../../core/i18n/translate";
import { completeness } from "../../locales/tables";
import { Icon } from "../../islands/lib/Icon";
import { close, translate } from "../../islands/lib/icons";
import { usePage } from "../context";
import { renderToStaticMarkup } from "react-dom/server";

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

/** One button per locale for a page in `current`. */
export function LocaleButtons({ current, t }: { current: Locale; t: Translate }) {
  const percent = new Intl.NumberFormat(htmlLang(current), { style: "percent" });
  return (
    <>
      {LOCALES.map((locale) => (
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
      ))}
    </>
  );
}

/**
 * The buttons as HTML, the same for every page in a locale, so rendered once per locale: 40
 * buttons were most of a login page's elements, and their names, flags and shares cost more than
 * the rest of it. React writes them alike in a page and alone (no adjacent texts to separate).
 */
const buttonsByLocale = new Map<Locale, string>();

function localeButtonsHtml(current: Locale, t: Translate): string {
  let html = buttonsByLocale.get(current);
  if (html === undefined) {
    html = renderToStaticMarkup(<LocaleButtons current={current} t={t} />);
    buttonsByLocale.set(current, html);
  }
  return html;
}

/** The picker's form: the field that brings the user back to `back`, then the locale's buttons; the HTML React writes for them inline. */
export function LanguageForm({ back, locale, t }: { back: string; locale: Locale; t: Translate }) {
  const backField = renderToStaticMarkup(<input type="hidden" name="back" value={back} />);
  return <form method="post" action="/prefs" className="lang-grid" dangerouslySetInnerHTML={{ __html: backField + localeButtonsHtml(locale, t) }} />;
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
        <LanguageForm back={page.backPath} locale={page.locale} t={page.t} />
        <a className="link" href={page.translationUrl} target="_blank" rel="noopener noreferrer">
          {page.t("language.helpTranslate")}
        </a>
      </div>
    </details>
  );
}
