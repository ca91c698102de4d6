// What every form and page of one server shares: loading the server with the caller's access
// (refused as the check names), rendering the server page on a tab, and running a plain form to
// its redirect and toast, or to the tab again with the refusal.
import type { Context, Handler } from "hono";
import { KilnError } from "../../../core/errors";
import type { ServerRequirement } from "../../../core/scopes/server-access";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { render } from "../../render";
import { isHttps, setFlash } from "../../cookies";
import { readBody } from "../../request";
import { authorize, getServerEntry, type ServerAccess, type ServerEntry } from "../../services/servers";
import { requestHost } from "../servers";
import { knownAddonFolder } from "../../services/mods";
import { ServerPage } from "../../../views/pages/server/ServerPage";
import { pickTab, type ServerTab } from "../../../views/pages/server/tabs";
import type { InvitedNotice } from "../../../views/pages/server/UsersTab";
import type { FilePending } from "../../../views/pages/server/FilePendingCard";
import { Alert } from "../../../views/components/Alert";
import { errorField } from "../../../views/components/form-errors";
import { tabContent } from "./tab-content";
import type { ShownPlan } from "../../../views/pages/server/ModsForms";
import type { FailedTaskSubmit } from "./tasks";
import { PlacementNotice, type Placement } from "../../../views/pages/server/PlacementNotice";
import { errorMessageKey } from "../../../core/errors/message-key";
import { tabAddress } from "./tab-state";

/** What a form's outcome may show on the tab it returns to, beside a refusal. */
export interface Extras {
  error?: string;
  /** the field `error` is about (error.metadata.field), for a tab whose form shows it there */
  errorField?: string;
  /** what the refused form sent, for a tab that shows it again to be corrected */
  posted?: Record<string, unknown>;
  /** the status to answer with when `error` is set */
  status?: number;
  createdClient?: { id: string; secret: string };
  invited?: InvitedNotice;
  failedTask?: FailedTaskSubmit;
  /** the files tab at this folder (a form posted elsewhere), maybe with its second step */
  files?: { folder: string; pending?: FilePending };
  /** the Mods tab with a plan to confirm (made by a form sent without script) */
  modsPlan?: ShownPlan;
  /** where "Best node" just put the server, said above the tab once */
  placed?: Placement;
}

/** A form's work: a toast's key (then a redirect to the tab), or what the tab shows again. */
export type Work = (c: Context<KilnEnv>, id: string, body: Record<string, unknown>, access: ServerAccess) => Promise<string | Extras> | string | Extras;
export type ServerForm = (needs: ServerRequirement, tab: ServerTab, work: Work) => Handler<KilnEnv>;

export interface ServerPageHost {
  /** The server the address names, with the caller's access after checking `needs` (ErrNotFound, ErrNoPermission). */
  load(c: Context<KilnEnv>, needs?: ServerRequirement): Promise<{ id: string; server: ServerEntry; access: ServerAccess }>;
  /** The server page on the tab asked for (or the first the caller may see). */
  page(c: Context<KilnEnv>, server: ServerEntry, access: ServerAccess, wanted: string | undefined, extras?: Extras, status?: number): Promise<Response>;
  form: ServerForm;
  flash(c: Context<KilnEnv>, key: string): void;
  /** A refusal in the caller's words. */
  message(c: Context<KilnEnv>, error: KilnError): string;
}

export function serverPageHost(deps: Deps): ServerPageHost {
  const message = (c: Context<KilnEnv>, error: KilnError) => c.get("t")(errorMessageKey(error.code, error.metadata), error.metadata);
  const flash = (c: Context<KilnEnv>, key: string) => setFlash(c, key, isHttps(c, deps.config.trustProxy));

  const load = async (c: Context<KilnEnv>, needs: ServerRequirement = "view") => {
    const id = c.req.param("id")!;
    const access = await authorize(deps.db, c.get("user")!, id, needs);
    return { id, server: await getServerEntry(deps.db, id, requestHost(c)), access };
  };

  async function page(c: Context<KilnEnv>, server: ServerEntry, access: ServerAccess, wanted: string | undefined, extras: Extras = {}, status = 200) {
    const tab = pickTab(access, wanted, server.type);
    let content;
    try {
      content = await tabContent(deps, c, server, access, tab, extras, message);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      content = <Alert kind="warning">{message(c, error)}</Alert>;
    }
    if (extras.placed) content = <><PlacementNotice placement={extras.placed} />{content}</>;
    // The users tab says an error about the email beside that field, not above the tabs.
    const atField = tab === "users" && extras.errorField === "email";
    return render(c, deps, <ServerPage server={server} access={access} tab={tab} error={atField ? undefined : extras.error} addonFolder={knownAddonFolder(server.id)}>{content}</ServerPage>, status);
  }

  const form: ServerForm = (needs, tab, work) => async (c) => {
    const { id, server, access } = await load(c, needs);
    const body = await readBody(c);
    try {
      const outcome = await work(c, id, body, access);
      if (typeof outcome !== "string") return page(c, await getServerEntry(deps.db, id, requestHost(c)), access, tab, outcome, outcome.status);
      flash(c, outcome);
      return c.redirect(tabAddress(id, tab, c.req.query()), 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return page(c, server, access, tab, { error: message(c, error), errorField: errorField(error.metadata), posted: body }, error.status);
    }
  };

  return { load, page, form, flash, message };
}
