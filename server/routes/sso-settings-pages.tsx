// Settings → Sign-in (administrators): the identity providers' forms and SSO-only mode, each a
// post that redirects with a toast, or the page again with the refusal where it belongs.
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { render } from "../render";
import { isHttps, setFlash } from "../cookies";
import { readForm } from "../request";
import { publicOrigin } from "../relying-party";
import { requirePageLogin, requireScope } from "../middleware/require";
import { createProvider, deleteProvider, listProviders, providerRow, rulesOf, updateProvider } from "../services/sso/providers";
import { evaluateRules } from "../services/sso/grants";
import { breakGlassCandidates, setSsoMode, ssoMode } from "../services/sso/mode";
import { SsoSettingsPage, type SsoSettingsProps } from "../../views/pages/SsoSettingsPage";
import { errorMessageKey } from "../../core/errors/message-key";

const BOOLEANS = ["enabled", "allowRegistration", "trustEmail", "satisfiesTwoFactor"];

export function ssoSettingsPageRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/settings/sso/*", requirePageLogin(), requireScope("admin"));
  const say = (c: Context<KilnEnv>, error: KilnError) => c.get("t")(errorMessageKey(error.code, error.metadata), error.metadata);

  const page = async (c: Context<KilnEnv>, extra: Partial<SsoSettingsProps> = {}, status = 200) =>
    render(c, deps, <SsoSettingsPage providers={await listProviders(deps.db)} callbackPattern={`${await publicOrigin(c, deps)}/auth/sso/{id}/callback`} mode={await ssoMode(deps.db)} admins={await breakGlassCandidates(deps.db)} {...extra} />, status);

  /** The form as the provider API takes it: checkboxes after their hidden "false", rules as JSON, an empty secret left out. */
  async function providerBody(c: Context<KilnEnv>): Promise<Record<string, unknown>> {
    const form = await readForm(c, { all: true });
    const last = (name: string) => {
      const value = form[name];
      const one = Array.isArray(value) ? value[value.length - 1] : value;
      return typeof one === "string" ? one : undefined;
    };
    const body: Record<string, unknown> = {};
    for (const name of ["id", "name", "type", "issuer", "clientId", "clientSecret", "scopes"]) {
      const value = last(name);
      if (value !== undefined && !(name === "clientSecret" && value === "")) body[name] = value;
    }
    for (const name of BOOLEANS) if (last(name) !== undefined) body[name] = last(name) === "true";
    const refresh = last("refreshMinutes");
    if (refresh !== undefined) body.refreshMinutes = refresh === "" ? 0 : Number(refresh);
    const rules = last("rules");
    if (rules !== undefined) {
      try {
        body.rules = JSON.parse(rules || "[]");
      } catch {
        throw new KilnError("ErrFieldNotBetween", { field: "rules" });
      }
    }
    return body;
  }

  /** Runs a form's work; success redirects with a toast, a refusal shows on the page by the form it concerns. */
  const form = (where: (c: Context<KilnEnv>) => string, work: (c: Context<KilnEnv>) => Promise<string> | string) => async (c: Context<KilnEnv>) => {
    try {
      setFlash(c, await work(c), isHttps(c, deps.config.trustProxy));
      return c.redirect("/settings/sso", 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return await page(c, { error: { message: say(c, error), provider: where(c) } }, error.status);
    }
  };

  app.get("/settings/sso", async (c) => await page(c));
  app.post("/settings/sso", form(() => "new", async (c) => (await createProvider(deps.db, c.get("user")!, await providerBody(c)), "settings.ssoSaved")));
  app.post("/settings/sso/mode", form(() => "mode", async (c) => {
    const body = await readForm(c, { all: true });
    const values = [body.ssoOnly].flat();
    const breakGlass = typeof body.breakGlassUserId === "string" && body.breakGlassUserId !== "" ? Number(body.breakGlassUserId) : null;
    await setSsoMode(deps.db, c.get("user")!, { ssoOnly: values[values.length - 1] === "true", breakGlassUserId: breakGlass });
    return "settings.ssoSaved";
  }));
  app.post("/settings/sso/:id", form((c) => c.req.param("id")!, async (c) => (await updateProvider(deps.db, c.get("user")!, c.req.param("id")!, await providerBody(c), c.get("sessionToken") ?? undefined), "settings.ssoSaved")));
  app.post("/settings/sso/:id/delete", form((c) => c.req.param("id")!, async (c) => (await deleteProvider(deps.db, c.req.param("id")!, c.get("sessionToken") ?? undefined), "settings.ssoDeleted")));
  app.post("/settings/sso/:id/preview", async (c) => {
    const id = c.req.param("id");
    const form = await readForm(c);
    const text = typeof form.claims === "string" ? form.claims : "";
    try {
      let claims: unknown;
      try {
        claims = JSON.parse(text);
      } catch {
        throw new KilnError("ErrFieldNotBetween", { field: "claims" });
      }
      if (!claims || typeof claims !== "object" || Array.isArray(claims)) throw new KilnError("ErrFieldNotBetween", { field: "claims" });
      return await page(c, { preview: { provider: id, claims: text, outcomes: evaluateRules(rulesOf(await providerRow(deps.db, id)), claims as Record<string, unknown>) } });
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return await page(c, { error: { message: say(c, error), provider: id } }, error.status);
    }
  });
  return app;
}
