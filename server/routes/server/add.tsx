// Add server (/addserver): the form, and its post, which creates the server through the same
// service as the API (the creation schema and the creator's bounds are checked there). A server
// placed by "Best node" lands on its page with where it went and why (services/placement/placement-notes).
import type { Context, Hono } from "hono";
import { KilnError } from "../../../core/errors";
import { SCOPES, hasScope } from "../../../core/scopes";
import { limitsFromForm, type Template } from "../../../core/definition";
import { variablesFromForm } from "../../../core/definition/variable-form";
import { portVariables } from "../../../core/definition/server-ports";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { render } from "../../render";
import { requirePageLogin } from "../../middleware/require";
import { readBody } from "../../request";
import { listNodes } from "../../services/nodes";
import { getTemplate, listTemplates } from "../../services/templates";
import { createServer, isAdminUser, offeredEnvironments } from "../../services/servers";
import { AddServerPage, type ModpackSummary, type PackSearchView } from "../../../views/pages/AddServerPage";
import { modpackFromText, newServerPack } from "../../services/mods/new-server-pack";
import { searchModpacks } from "../../services/mods/pack-search";
import { PACK_SOURCES } from "../../../core/mods/types";
import type { ServerPageHost } from "./host";
import { stashPlacement } from "../../services/placement/placement-notes";

/** The limits key of a creation request, only when the form had the fields. */
const withLimits = (limits: ReturnType<typeof limitsFromForm>) => (limits ? { limits } : {});
/** The modpack key of a creation request, only when the form named one. */
const withModpack = (modpack: ReturnType<typeof modpackFromText>) => (modpack ? { modpack } : {});
/** The constraints key of a creation request from the comma-separated tags field, only when it names some. */
const withConstraints = (text: string | undefined) => {
  const tags = (text ?? "").split(",").map((tag) => tag.trim()).filter(Boolean);
  return tags.length > 0 ? { constraints: tags } : {};
};
/**
 * The form's variables as the creator chose them. The form posts every variable, untouched ones
 * too; a port variable still at the template's default is no choice, so it is left out: a node
 * with a pool then gives a free port (the default when free), one without keeps the default.
 */
const chosenVariables = (variables: Record<string, string>, template: Template | undefined): Record<string, string> => {
  if (!template) return variables;
  const ports = new Set(portVariables(template.data));
  return Object.fromEntries(Object.entries(variables).filter(([name, value]) => !(ports.has(name) && String(template.data[name]?.value ?? "") === value)));
};

export function addServerRoutes(app: Hono<KilnEnv>, deps: Deps, host: ServerPageHost): void {
  const addPage = async (c: Context<KilnEnv>, values: Record<string, string> = {}, error?: string, status = 200) => {
    // "Start from a modpack": the pack names the template and the variables it sets (the service
    // checks them again when the form is sent).
    const packText = c.req.query("modpack") ?? values.modpack ?? "";
    let pack: ModpackSummary | undefined;
    if (packText.trim() !== "") {
      try {
        const choice = modpackFromText(packText)!;
        const found = await newServerPack(deps.db, choice, c.req.query("modpack") ? undefined : values.template);
        pack = { text: packText, source: choice.source, title: found.title, versionNumber: found.versionNumber, loader: found.loader, gameVersion: found.gameVersion };
        values = { ...values, template: found.template, ...Object.fromEntries(Object.entries(found.variables).map(([name, value]) => [`var.${name}`, value])) };
      } catch (packError) {
        if (!(packError instanceof KilnError)) throw packError;
        return render(c, deps, await pageOf(c, values, undefined, host.message(c, packError), packText), packError.status);
      }
    }
    const chosen = pack ? values.template : c.req.query("template") || values.template;
    return render(c, deps, await pageOf(c, values, chosen, error, packText, pack), status);
  };
  // "Find a modpack" (?packs=words&source=&page=): a source that does not answer is said in the card, never the page's error.
  const packSearchOf = async (c: Context<KilnEnv>): Promise<PackSearchView | undefined> => {
    const q = c.req.query("packs");
    if (q === undefined) return undefined;
    const params = { q, source: c.req.query("source"), page: c.req.query("page") };
    // The list keeps the source asked for when it is one (searchModpacks refuses any other).
    const source = PACK_SOURCES.find((s) => s === params.source) ?? PACK_SOURCES[0];
    try {
      return { q, source, result: await searchModpacks(deps.db, params) };
    } catch (searchError) {
      if (!(searchError instanceof KilnError)) throw searchError;
      return { q, source, error: host.message(c, searchError) };
    }
  };
  const pageOf = async (c: Context<KilnEnv>, values: Record<string, string>, chosen: string | undefined, error: string | undefined, packText: string, pack?: ModpackSummary) => {
    const template = chosen ? await getTemplate(deps.db, chosen) : undefined;
    return (
      <AddServerPage
        templates={await listTemplates(deps.db)}
        nodes={await listNodes(deps.db)}
        template={template}
        environments={template ? offeredEnvironments(template) : []}
        ownerEmail={c.get("user")!.email}
        values={values}
        error={error}
        admin={await isAdminUser(deps.db, c.get("user")!)}
        modpackText={packText}
        modpack={pack}
        packSearch={await packSearchOf(c)}
      />
    );
  };
  // What no node had, in words rather than the code placement gives (metadata.short).
  const refusal = (c: Context<KilnEnv>, error: KilnError) =>
    error.code === "ErrNoNodeFits" && typeof error.metadata?.short === "string" ? c.get("t")("errors.ErrNoNodeFits", { ...error.metadata, short: c.get("t")(`placement.short.${error.metadata.short}`) }) : host.message(c, error);
  const requireCreate = (c: Context<KilnEnv>) => {
    if (!hasScope(c.get("user")!.scopes, SCOPES.serversCreate)) throw new KilnError("ErrMissingScope", { scope: SCOPES.serversCreate });
  };

  app.get("/addserver", requirePageLogin(), (c) => {
    requireCreate(c);
    return addPage(c);
  });

  app.post("/addserver", requirePageLogin(), async (c) => {
    requireCreate(c);
    const form = (await readBody(c)) as Record<string, string>;
    try {
      const raw = {
        name: form.name,
        node: form.node,
        template: form.template,
        // The image only with the docker environment: it is one of the template's images (creation-bounds checks).
        environment: { type: form.environment, ...(form.environment === "docker" && form.image ? { image: form.image } : {}) },
        user: form.user,
        variables: chosenVariables(variablesFromForm(form), form.template ? await getTemplate(deps.db, form.template) : undefined),
        autostart: form.autostart,
        autorestart: form.autorestart,
        autorecover: form.autorecover,
        ...withModpack(modpackFromText(form.modpack ?? "")),
        // The tags field shows with "Best node" only: hidden, what it kept is not asked of a named node.
        ...(form.node === "auto" ? withConstraints(form.constraints) : {}),
        // Only an administrator's form has the fields; creation-bounds refuses them from anyone else.
        ...withLimits(limitsFromForm(form)),
      };
      const { id, placement } = await createServer(deps.db, c.get("user")!, raw);
      host.flash(c, "servers.created");
      // "Best node": the server's page says where it went and why.
      return c.redirect(placement ? `/server/${id}?placed=${await stashPlacement(deps.db, id, placement)}` : `/server/${id}`, 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return addPage(c, form, refusal(c, error), error.status);
    }
  });
}
