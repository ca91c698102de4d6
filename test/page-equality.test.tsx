// The panel renders pages with React's renderToString (server/render.tsx) rather than its stream;
// the HTML must stay byte for byte what the stream wrote. Each page here is rendered both ways
// inside a real request (the app's own middleware: session, locale, theme), logged out and in,
// left to right and right to left, and the two texts compared.
import { beforeAll, describe, expect, test } from "bun:test";
import type { ReactElement } from "react";
import { renderToReadableStream, renderToString } from "react-dom/server";
import { loginAs, testPanel, type TestPanel } from "./helpers/app";
import { pageDocument, pageHtml, render } from "../server/render";
import { isRegistrationEnabled, setSetting, SETTING_KEYS } from "../server/services/settings";
import { firstAdminNotice } from "../server/services/users";
import { LoginPage } from "../views/pages/LoginPage";
import { RegisterPage } from "../views/pages/RegisterPage";
import { NotFoundPage } from "../views/pages/NotFoundPage";
import { ErrorPage } from "../views/pages/ErrorPage";
import { AddNodePage } from "../views/pages/AddNodePage";
import { AddUserPage } from "../views/pages/AddUserPage";
import { CloudIdePage } from "../views/pages/CloudIdePage";
import { ServersPage } from "../views/pages/ServersPage";
import { SCOPES } from "../core/scopes";
import { LanguageForm, LocaleButtons } from "../views/layout/LanguagePicker";
import { translatorFor } from "../locales/tables";

const PAGES: Record<string, () => ReactElement> = {
  login: () => <LoginPage reason="expired" registrationEnabled firstAdmin={null} />,
  "login, code step": () => <LoginPage otpStep email="someone@example.com" error="wrong <code> & more" />,
  register: () => <RegisterPage enabled values={{ username: "a\"b", email: "x@example.com" }} />,
  "not found": () => <NotFoundPage />,
  error: () => <ErrorPage status={403} message="No access to 'this' <server>" />,
  "add node": () => <AddNodePage />,
  "add user": () => <AddUserPage error={{ message: "taken", field: "email" }} values={{ email: "x@example.com" }} />,
  "cloud IDE": () => <CloudIdePage />,
  // A fragment a page fetches into itself (the template import dialog's sections): no doctype.
  fragment: () => <section className="stack" aria-label="a 'part' & more"><h3 dir="auto">Part</h3></section>,
  servers: () => <ServersPage servers={[]} query={{ q: "", nodeId: null, status: null, sort: "name", descending: false }} nodes={[]} page={1} pages={1} total={0} scanCapped={false} canCreate />,
};

let panel: TestPanel;
let admin: string;

beforeAll(async () => {
  panel = await testPanel();
  admin = (await loginAs(panel.db, [SCOPES.admin])).token;
  // Renders the named page both ways; each from its own page context, as a request makes one.
  panel.app.get("/page-equality/:name", async (c) => {
    const page = PAGES[c.req.param("name")]!;
    const stream = await renderToReadableStream(await pageDocument(c, panel.deps, page()));
    return c.json({ stream: await new Response(stream).text(), string: pageHtml(await pageDocument(c, panel.deps, page())) });
  });
  // The login page rendered for each request, as the route would without keeping it.
  panel.app.get("/page-equality-login", async (c) => render(c, panel.deps, <LoginPage reason={c.req.query("reason")} registrationEnabled={await isRegistrationEnabled(panel.db)} firstAdmin={await firstAdminNotice(panel.db)} />));
});

const VIEWERS = [
  { label: "logged out, English", token: undefined, locale: "en_US" },
  { label: "administrator, English", token: () => admin, locale: "en_US" },
  { label: "administrator, Arabic (right to left)", token: () => admin, locale: "ar_SA" },
];

describe("pages render byte for byte as React's stream wrote them", () => {
  for (const viewer of VIEWERS) {
    test(viewer.label, async () => {
      for (const name of Object.keys(PAGES)) {
        const response = await panel.request(`/page-equality/${encodeURIComponent(name)}`, { token: viewer.token?.(), headers: { cookie: `kiln_locale=${viewer.locale}` } });
        const { stream, string } = (await response.json()) as { stream: string; string: string };
        expect(stream.startsWith(name === "fragment" ? "<section" : "<!DOCTYPE html><html")).toBe(true);
        expect({ name, html: string }).toEqual({ name, html: stream });
      }
    });
  }
});

// The language picker's buttons are HTML made once per locale: the form must read exactly as
// React wrote it with the buttons inline, whatever page it brings the user back to.
describe("the language picker made once per locale", () => {
  const backs = ["/server", "/settings?a=1&b=2", `/x?q="><script>alert('x')</script>&lt;`];
  for (const locale of ["en_US", "ar_SA", "de_DE"] as const) {
    test(locale, () => {
      const t = translatorFor(locale);
      for (const back of backs) {
        const inline = renderToString(
          <form method="post" action="/prefs" className="lang-grid">
            <input type="hidden" name="back" value={back} />
            <LocaleButtons current={locale} t={t} />
          </form>,
        );
        // Twice: the second from what the first made.
        for (let i = 0; i < 2; i++) expect(renderToString(<LanguageForm back={back} locale={locale} t={t} />)).toBe(inline);
      }
    });
  }
});

// The login page is kept as HTML for logged-out visitors (server/render renderKept): what it
// answers, from memory or not, must read as the page rendered for that request, and a change to
// what it shows (the brand, registration) must show on the next request.
describe("the login page kept for logged-out visitors", () => {
  const fresh = async (query: string, locale: string) => (await panel.request(`/page-equality-login${query}`, { headers: { cookie: `kiln_locale=${locale}` } })).text();
  const served = async (query: string, locale: string) => (await panel.request(`/auth/login${query}`, { headers: { cookie: `kiln_locale=${locale}` } })).text();
  // The pages differ only where they name themselves: the form's way back.
  const same = (html: string) => html.replaceAll("/page-equality-login", "/auth/login");

  test("from memory or not, as rendered; in two locales and with a reason", async () => {
    for (const [query, locale] of [["", "en_US"], ["", "ar_SA"], ["?reason=expired", "en_US"], ["?reason=%22%3E%3Cb%3E", "de_DE"]] as const) {
      const expected = same(await fresh(query, locale));
      expect(await served(query, locale)).toBe(expected);
      expect(await served(query, locale)).toBe(expected);
    }
  });

  test("a new brand and registration turned on show on the next request", async () => {
    await served("", "en_US");
    await setSetting(panel.db, SETTING_KEYS.companyName, "Brand <New>");
    const branded = await served("", "en_US");
    expect(branded).toContain("Brand &lt;New&gt;");
    expect(branded).toBe(same(await fresh("", "en_US")));
    await setSetting(panel.db, SETTING_KEYS.registrationEnabled, "true");
    const open = await served("", "en_US");
    expect(open).not.toBe(branded);
    expect(open).toBe(same(await fresh("", "en_US")));
  });
});
