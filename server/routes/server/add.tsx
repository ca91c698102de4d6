// Add server (/addserver): the form, and its post, which creates the server through the same
// service as the API (the creation schema and the creator's bounds are checked there).
import type { Context, Hono } from "hono";
import { KilnError } from "../../../core/errors";
import { SCOPES, hasScope } from "../../../core/scopes";
import { limitsFromForm } from "../../../core/definition";
import { variablesFromForm } from "../../../core/definition/variable-form";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { render } from "../../render";
import { requirePageLogin } from "../../middleware/require";
import { readBody } from "../../request";
import { listNodes } from "../../services/nodes";
import { getTemplate, listTemplates } from "../../services/templates";
import { createServer, isAdminUser, offeredEnvironments } from "../../services/servers";
import { AddServerPage, type ModpackSummary } from "../../../views/pages/AddServerPage";
import { modpackFromText, newServerPack } from "../../services/mods/new-server-pack";
import type { ServerPageHost } from "./host";

/** The limits key of a creation request, only when the form had the fields. */
const withLimits = (limits: ReturnType<typeof limitsFromForm>) => (limits ? { limits } : {});
/** The modpack key of a creation request, only when the form named one. */
const withModpack = (modpack: ReturnType<typeof modpackFromText>) => (modpack ? { modpack } : {});

export function addServerRoutes(app: Hono<KilnEnv>, deps: Deps, host: ServerPageHost): void {
  const addPage = async (c: Context<KilnEnv>, values: Record<string, string> = {}, error?: string, status = 200) => {
    // "Start from a modpack": the pack names the template and the Minecraft version (the service
    // checks both again when the form is sent).
    const packText = c.req.query("modpack") ?? values.modpack ?? "";
    const choice = modpackFromText(packText);
    let pack: ModpackSummary | undefined;
    if (choice) {
      try {
        const found = await newServerPack(deps.db, choice, c.req.query("modpack") ? undefined : values.template);
        pack = { text: packText, title: found.title, versionNumber: found.versionNumber, loader: found.loader, gameVersion: found.gameVersion?.value ?? null };
        values = { ...values, template: found.template, ...(found.gameVersion ? { [`var.${found.gameVersion.variable}`]: found.gameVersion.value } : {}) };
      } catch (packError) {
        if (!(packError instanceof KilnError)) throw packError;
        return render(c, deps, pageOf(c, values, undefined, host.message(c, packError), packText), packError.status);
      }
    }
    const chosen = pack ? values.template : c.req.query("template") || values.template;
    return render(c, deps, pageOf(c, values, chosen, error, packText, pack), status);
  };
  const pageOf = (c: Context<KilnEnv>, values: Record<string, string>, chosen: string | undefined, error: string | undefined, packText: string, pack?: ModpackSummary) => {
    const template = chosen ? getTemplate(deps.db, chosen) : undefined;
    return (
      <AddServerPage
        templates={listTemplates(deps.db)}
        nodes={listNodes(deps.db)}
        template={template}
        environments={template ? offeredEnvironments(template) : []}
        ownerEmail={c.get("user")!.email}
        values={values}
        error={error}
        admin={isAdminUser(deps.db, c.get("user")!)}
        modpackText={packText}
        modpack={pack}
      />
    );
  };
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
        variables: variablesFromForm(form),
        autostart: form.autostart,
        autorestart: form.autorestart,
        autorecover: form.autorecover,
        ...withModpack(modpackFromText(form.modpack ?? "")),
        // Only an administrator's form has the fields; creation-bounds refuses them from anyone else.
        ...withLimits(limitsFromForm(form)),
      };
      const { id } = await createServer(deps.db, c.get("user")!, raw);
      host.flash(c, "servers.created");
      return c.redirect(`/server/${id}`, 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return addPage(c, form, host.message(c, error), error.status);
    }
  });
}
