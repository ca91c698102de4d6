// The server screens (spec section 2): add server, and one server with its tabs (the list is in
// ./server-list-page.tsx). Every
// action is a plain form that posts here, so the page works without script; the islands do the
// same through the API and the socket when script runs.
import { editableVariables, replaceDefinition, setVariables } from "../services/servers/variables";
import type { NodeOperationName } from "../../core/contract";
import type { OperationInit } from "../daemon-client";
import { POWER_ACTIONS, POWER_ACTION_RULES } from "../../core/contract";
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES, SERVER_FLAGS, hasScope } from "../../core/scopes";
import { withPreset } from "../../core/scopes/presets";
import { API_SCHEMAS, serverName } from "../../core/api/schemas";
import { limitsFromForm, type ServerDefinition } from "../../core/definition";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { render } from "../render";
import { isHttps, setFlash } from "../cookies";
import { requirePageLogin } from "../middleware/require";
import { readBody } from "../request";
import { parseWith } from "../validate";
import { listNodes } from "../services/nodes";
import { getTemplate, listTemplates } from "../services/templates";
import { createClient, deleteClient, listClients } from "../services/oauth2";
import { deleteTask, listTasks, runTaskNow, saveTask, usableOperations } from "../services/tasks";
import { describeSchedule } from "../../core/cron/describe";
import {
  authorize,
  findUserByEmail,
  holdsAllFlags,
  createServer,
  deleteServer,
  deleteServerUser,
  fetchDefinition,
  getServerEntry,
  isAdminUser,
  listServerUsers,
  offeredEnvironments,
  putServerUser,
  renameServer,
  serverNode,
  callServerNode,
  type Requirement,
  type ServerAccess,
  type ServerEntry,
} from "../services/servers";
import { shareServer } from "../share-server";
import { sftpAccess } from "../services/sftp";
import { requestHost } from "./servers";
import { AddServerPage } from "../../views/pages/AddServerPage";
import { ServerPage } from "../../views/pages/server/ServerPage";
import { pickTab, type ServerTab } from "../../views/pages/server/tabs";
import { SettingsTab } from "../../views/pages/server/SettingsTab";
import { UsersTab, type InvitedNotice } from "../../views/pages/server/UsersTab";
import { AdminTab, RUN_FLAGS, type RunFlag } from "../../views/pages/server/AdminTab";
import { FilesTab } from "../../views/pages/server/FilesTab";
import { ConsoleTab } from "../../views/pages/server/ConsoleTab";
import { StatsTab } from "../../views/pages/server/StatsTab";
import type { FilePending } from "../../views/pages/server/FilePendingCard";
import { fileFormRoutes } from "./file-forms";
import { backupFormRoutes } from "./backup-forms";
import { BackupsTab } from "../../views/pages/server/BackupsTab";
import { NodeBackups, NodeBackupTargets } from "../services/backups";
import type { BackupBrowse } from "../../views/pages/server/BackupsTab";
import { NodeFiles } from "../services/files/node-files";
import { TasksTab, type FailedTaskForm, type TaskFormValues } from "../../views/pages/server/TasksTab";
import type { StepValue } from "../../islands/definition/convert";
import { normalizePath, sftpDetails, type FolderListing } from "../../core/files";
import { Alert } from "../../views/components/Alert";
import { errorField } from "../../views/components/form-errors";
import { variablesFromForm } from "../../core/definition/variable-form";
import { KEEP_CHANGED, keepsChanged } from "../../core/install";

/** The console tab arrives with the last part of the buffer; the island replays what is newer. */
const INITIAL_CONSOLE_BYTES = 64 * 1024;

interface Extras {
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
}

/**
 * A task form whose save failed, to show again in its dialog. `operations` is null when the
 * script-free textarea held no readable list: the dialog then shows the steps as stored.
 */
type FailedTaskSubmit = Omit<FailedTaskForm, "values"> & { values: Omit<TaskFormValues, "operations"> & { operations: StepValue[] | null } };

/**
 * The task form's fields: `scheduled` unchecked (absent, or "" from the schedule editor) means
 * manual only, whatever `cronSchedule` holds; `operations` is JSON text, blank for none.
 */
function taskFormFields(body: Record<string, unknown>) {
  const text = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : "");
  const scheduled = text("scheduled") === "on";
  const operationsText = text("operations").trim();
  let operations: unknown = null;
  try {
    operations = operationsText === "" ? [] : JSON.parse(operationsText);
  } catch {
    // left null: reported as ErrInvalidJson below
  }
  const readable = Array.isArray(operations) && operations.every((o) => typeof o === "object" && o !== null && typeof o.type === "string");
  return { name: text("name"), cronSchedule: scheduled ? text("cronSchedule").trim() || null : null, operations: readable ? (operations as StepValue[]) : null };
}

/** The limits key of a creation request, only when the form had the fields. */
const withLimits = (limits: ReturnType<typeof limitsFromForm>) => (limits ? { limits } : {});

export function serverPageRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  const t = (c: Context<KilnEnv>) => c.get("t");
  const message = (c: Context<KilnEnv>, error: KilnError) => t(c)(`errors.${error.code}`, error.metadata);
  const flash = (c: Context<KilnEnv>, key: string) => setFlash(c, key, isHttps(c, deps.config.trustProxy));

  // The list (/server) is in ./server-list-page.tsx.

  // ---- add server -------------------------------------------------------------------------
  const addPage = (c: Context<KilnEnv>, values: Record<string, string> = {}, error?: string, status = 200) => {
    const chosen = c.req.query("template") || values.template;
    const template = chosen ? getTemplate(deps.db, chosen) : undefined;
    return render(
      c,
      deps,
      <AddServerPage templates={listTemplates(deps.db)} nodes={listNodes(deps.db)} template={template} environments={template ? offeredEnvironments(template) : []} ownerEmail={c.get("user")!.email} values={values} error={error} admin={isAdminUser(deps.db, c.get("user")!)} />,
      status,
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
        // Only an administrator's form has the fields; creation-bounds refuses them from anyone else.
        ...withLimits(limitsFromForm(form)),
      };
      const { id } = await createServer(deps.db, c.get("user")!, raw);
      flash(c, "servers.created");
      return c.redirect(`/server/${id}`, 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return addPage(c, form, message(c, error), error.status);
    }
  });

  // ---- one server -------------------------------------------------------------------------
  const load = (c: Context<KilnEnv>, needs: Requirement = "view") => {
    const id = c.req.param("id")!;
    const access = authorize(deps.db, c.get("user")!, id, needs);
    return { id, server: getServerEntry(deps.db, id, requestHost(c)), access };
  };

  async function serverPage(c: Context<KilnEnv>, server: ServerEntry, access: ServerAccess, wanted: string | undefined, extras: Extras = {}, status = 200) {
    const tab = pickTab(access, wanted);
    let content;
    let nodeError: string | undefined;
    try {
      content = await tabContent(c, server, access, tab, extras);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      nodeError = message(c, error);
      content = <Alert kind="warning">{nodeError}</Alert>;
    }
    // The users tab says an error about the email beside that field, not above the tabs.
    const atField = tab === "users" && extras.errorField === "email";
    return render(c, deps, <ServerPage server={server} access={access} tab={tab} error={atField ? undefined : extras.error}>{content}</ServerPage>, status);
  }

  async function tabContent(c: Context<KilnEnv>, server: ServerEntry, access: ServerAccess, tab: ServerTab, extras: Extras) {
    const user = c.get("user")!;
    switch (tab) {
      case "console": {
        const response = await callServerNode(deps.db, server.id, "console");
        const { logs, epochMs: epoch } = (await response.json()) as { logs: string[]; epochMs: number };
        const text = logs.join("");
        const tail = text.length > INITIAL_CONSOLE_BYTES ? text.slice(text.indexOf("\n", text.length - INITIAL_CONSOLE_BYTES) + 1) : text;
        const canSend = access.admin || access.permissions.sendServerConsole;
        const canSeeStats = access.admin || access.permissions.viewServerStats;
        return <ConsoleTab serverId={server.id} address={server.address} canSend={canSend} canSeeStats={canSeeStats} initialLogs={tail} initialEpoch={epoch} />;
      }
      case "stats":
        return <StatsTab serverId={server.id} />;
      case "files": {
        const node = serverNode(deps.db, server.id);
        const mayView = access.admin || access.permissions.viewServerFiles;
        const maySftp = access.admin || access.permissions.sftpServer;
        const path = extras.files?.folder ?? normalizePath(c.req.query("path") ?? "");
        const files = mayView ? { canEdit: access.admin || access.permissions.putServerFiles, path, ...(await initialListing(c, server.id, path)), search: await fileSearch(c, server.id, path), pending: extras.files?.pending ?? null } : null;
        const sftp = maySftp ? { details: sftpDetails(node.publicHost, node.sftpPort, requestHost(c), user.email, server.id), access: sftpAccess(access) } : null;
        return <FilesTab serverId={server.id} sftp={sftp} files={files} />;
      }
      case "settings": {
        const definition = await fetchDefinition(deps.db, server.id);
        return <SettingsTab serverId={server.id} variables={editableVariables(definition, access)} groups={definition.groups} />;
      }
      case "tasks": {
        const stored = await listTasks(deps.db, server.id);
        const locale = c.get("locale");
        const tasks = Object.entries(stored).map(([id, task]) => ({
          id,
          name: task.name,
          cronSchedule: task.cronSchedule,
          operations: task.operations as StepValue[],
          description: describeSchedule(task.cronSchedule, locale),
          lastRun: task.lastRun ?? null,
          nextRun: task.nextRun ?? null,
        }));
        const failed = extras.failedTask;
        const keptSteps = (failed?.taskId && (stored[failed.taskId]?.operations as StepValue[] | undefined)) || [];
        return <TasksTab serverId={server.id} tasks={tasks} operationTypes={usableOperations(access)} failed={failed && { ...failed, values: { ...failed.values, operations: failed.values.operations ?? keptSteps } }} />;
      }
      case "users": {
        // Removing someone takes all their flags away: only a caller holding every one of them may.
        const users = listServerUsers(deps.db, server.id).map((u) => ({ ...u, removable: holdsAllFlags(access, SERVER_FLAGS.filter((f) => u[f])) }));
        const addError = extras.error !== undefined && extras.errorField === "email" ? { message: extras.error, field: "email" } : undefined;
        return <UsersTab serverId={server.id} users={users} grantable={access.permissions} invited={extras.invited} addError={addError} addPosted={addError ? extras.posted : undefined} />;
      }
      case "backups": {
        const backups = new NodeBackups(deps.db, server.id);
        const [{ backups: list, running }, { ignore }] = await Promise.all([backups.list(), backups.settings()]);
        // ?browse=<backup>&path=…: the restore dialog browsing one folder of that backup.
        const browsed = c.req.query("browse");
        const browse = browsed ? await backupBrowse(backups, browsed, c.req.query("path") ?? "", (error) => message(c, error)) : undefined;
        return <BackupsTab serverId={server.id} backups={list} running={running} ignore={ignore} browse={browse} />;
      }
      case "admin": {
        const definition = access.admin ? await fetchDefinition(deps.db, server.id).catch(() => null) : null;
        // Issue 20: the backup policy, with the node's targets to choose from (null when the node does not answer).
        const backupPolicy = access.admin && definition ? await backupPolicyOf(c, server.id).catch(() => null) : null;
        return (
          <AdminTab
            serverId={server.id}
            clients={listClients(deps.db, user.id, server.id)}
            created={extras.createdClient}
            admin={access.admin}
            canDelete={access.admin || access.permissions.deleteServer}
            definition={definition}
            backupPolicy={backupPolicy}
          />
        );
      }
    }
  }

  app.get("/server/:id", requirePageLogin(), async (c) => {
    const { server, access } = load(c);
    return serverPage(c, server, access, c.req.query("tab"));
  });

  /**
   * A form on the server page: checks the permission, runs the work, and either redirects back to
   * the tab with a toast or shows the page again with the error.
   */
  const serverForm = (needs: Requirement, tab: ServerTab, work: (c: Context<KilnEnv>, id: string, body: Record<string, unknown>, access: ServerAccess) => Promise<string | Extras> | string | Extras) =>
    async (c: Context<KilnEnv>) => {
      const { id, server, access } = load(c, needs);
      const body = await readBody(c);
      try {
        const outcome = await work(c, id, body, access);
        if (typeof outcome !== "string") return serverPage(c, getServerEntry(deps.db, id, requestHost(c)), access, tab, outcome, outcome.status);
        flash(c, outcome);
        return c.redirect(`/server/${id}?tab=${tab}`, 303);
      } catch (error) {
        if (!(error instanceof KilnError)) throw error;
        return serverPage(c, server, access, tab, { error: message(c, error), errorField: errorField(error.metadata), posted: body }, error.status);
      }
    };

  /**
   * The folder the files tab was asked for, listed on the server so the tab works before script.
   * A refusal (a node that does not answer, a folder that is not there) is said where the listing
   * would be, with a retry (issue 19), never shown as an empty folder; a path that names a file is
   * null, and the file manager asks again in the browser.
   */
  async function initialListing(c: Context<KilnEnv>, id: string, path: string): Promise<{ listing: FolderListing | null; error: string | null }> {
    try {
      return { listing: await new NodeFiles(deps.db, id).list(path), error: null };
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return { listing: null, error: message(c, error) };
    }
  }

  /** The search by name the files tab's address asks for (?q=), below the folder shown. */
  async function fileSearch(c: Context<KilnEnv>, id: string, folder: string) {
    const query = (c.req.query("q") ?? "").trim();
    if (query === "") return null;
    try {
      return { query, folder, found: await new NodeFiles(deps.db, id).search(folder, query) };
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return { query, folder, error: message(c, error) };
    }
  }

  const nodeCall = async (id: string, name: NodeOperationName, init: OperationInit = {}) => void (await callServerNode(deps.db, id, name, {}, init));

  for (const action of POWER_ACTIONS) {
    app.post(`/server/:id/power/${action}`, requirePageLogin(), serverForm(POWER_ACTION_RULES[action].needs, "console", async (_c, id, body) => {
      // The Install dialog's choice: keep the files changed since the last install, or not.
      const query = action === "install" && !keepsChanged(body[KEEP_CHANGED]) ? `?${KEEP_CHANGED}=false` : "";
      await nodeCall(id, action, { query });
      return `serverPage.sent.${action}`;
    }));
  }

  app.post("/server/:id/console", requirePageLogin(), serverForm("sendServerConsole", "console", async (_c, id, body) => {
    const command = String(body.command ?? "");
    if (command.trim() === "") throw new KilnError("ErrFieldRequired", { field: "command" });
    await nodeCall(id, "sendCommand", { body: command });
    return "serverPage.commandSent";
  }));

  app.post("/server/:id/rename", requirePageLogin(), serverForm("editServerData", "console", (_c, id, body) => {
    renameServer(deps.db, id, parseWith(serverName, body.name ?? ""));
    return "serverPage.renamed";
  }));

  app.post("/server/:id/settings", requirePageLogin(), serverForm("editServerData", "settings", async (_c, id, body, access) => {
    await setVariables(deps.db, access, id, variablesFromForm(body));
    return "serverSettings.saved";
  }));

  // ---- files (the file manager's plain forms) ---------------------------------------------
  fileFormRoutes(app, deps, {
    load,
    flash,
    showTab: (c, server, access, files, error) => serverPage(c, server, access, "files", { files, error: error && message(c, error) }, error?.status),
  });

  // ---- backups (issue 20) -----------------------------------------------------------------
  backupFormRoutes(app, deps, serverForm);
  async function backupPolicyOf(c: Context<KilnEnv>, id: string) {
    const [{ policy }, targets] = await Promise.all([new NodeBackups(deps.db, id).settings(), new NodeBackupTargets(deps.db, serverNode(deps.db, id).id, c.get("user")!).list()]);
    return { policy, targets };
  }

  // ---- tasks ------------------------------------------------------------------------------
  /** Saves the New Task (taskId null) or Edit Task form; a refusal shows that dialog again, open, with the error. */
  const saveTaskForm = (taskId: (c: Context<KilnEnv>) => string | null) =>
    serverForm("editServerData", "tasks", async (c, id, body, access) => {
      const values = taskFormFields(body);
      const editing = taskId(c);
      try {
        if (values.operations === null) throw new KilnError("ErrInvalidJson", { field: "operations" });
        await saveTask(deps.db, c.get("user")!, access, id, editing, values);
        return "tasks.saved";
      } catch (error) {
        if (!(error instanceof KilnError)) throw error;
        return { failedTask: { taskId: editing, values, error: message(c, error) }, status: error.status };
      }
    });

  app.post("/server/:id/tasks", requirePageLogin(), saveTaskForm(() => null));
  app.post("/server/:id/tasks/:taskId", requirePageLogin(), saveTaskForm((c) => c.req.param("taskId")!));

  app.post("/server/:id/tasks/:taskId/run", requirePageLogin(), serverForm("editServerData", "tasks", async (c, id, _body, access) => {
    await runTaskNow(deps.db, access, id, c.req.param("taskId")!);
    return "tasks.started";
  }));

  app.post("/server/:id/tasks/:taskId/delete", requirePageLogin(), serverForm("editServerData", "tasks", async (c, id) => {
    await deleteTask(deps.db, id, c.req.param("taskId")!);
    return "tasks.deleted";
  }));

  // ---- users ------------------------------------------------------------------------------
  app.post("/server/:id/users", requirePageLogin(), serverForm("editServerUsers", "users", async (c, id, body, access) => {
    const email = String(body.email ?? "").trim();
    if (email === "") return { error: t(c)("users.noEmail"), errorField: "email", posted: body, status: 400 };
    try {
      // A preset button (no script) sends its name: its flags replace the switches'.
      const invited = await shareServer(c, deps, access, id, email, withPreset(body));
      // An invitation is shown: emailed, or (to a caller who may create accounts) its link to pass on.
      return invited ? { invited: { email, emailSent: invited.emailSent, url: invited.inviteUrl } } : "serverUsers.saved";
    } catch (error) {
      // Said in the words of this form: the person has no account, and no invitation can reach them.
      if (error instanceof KilnError && error.code === "ErrEmailNotConfigured") return { error: t(c)("serverUsers.inviteNeedsEmail", { email }), errorField: "email", posted: body, status: error.status };
      throw error;
    }
  }));

  app.post("/server/:id/users/:email", requirePageLogin(), serverForm("editServerUsers", "users", (c, id, body, access) => {
    const user = findUserByEmail(deps.db, c.req.param("email")!);
    if (!user) throw new KilnError("ErrUserNotFound");
    putServerUser(deps.db, access, id, user.id, withPreset(body));
    return "serverUsers.saved";
  }));

  app.post("/server/:id/users/:email/delete", requirePageLogin(), serverForm("editServerUsers", "users", (c, id, _body, access) => {
    deleteServerUser(deps.db, access, id, c.req.param("email")!);
    return "serverUsers.removed";
  }));

  // ---- admin ------------------------------------------------------------------------------
  app.post("/server/:id/flags", requirePageLogin(), serverForm("admin", "admin", async (_c, id, body) => {
    const flag = String(body.flag) as RunFlag;
    if (!RUN_FLAGS.includes(flag)) throw new KilnError("ErrFieldRequired", { field: "flag" });
    // Spec section 4: re-read the definition, set the flag, save the whole definition, reload.
    const definition = await fetchDefinition(deps.db, id);
    definition.run[flag] = !definition.run[flag];
    await replaceDefinition(deps.db, id, definition);
    return "serverAdmin.saved";
  }));

  // Issue 16 part 4: the resource limits, administrators only (the node applies them at the next start).
  app.post("/server/:id/limits", requirePageLogin(), serverForm("admin", "admin", async (_c, id, body) => {
    const limits = limitsFromForm(body) ?? {};
    const definition = await fetchDefinition(deps.db, id);
    await replaceDefinition(deps.db, id, { ...definition, limits });
    return "limits.saved";
  }));

  app.post("/server/:id/definition", requirePageLogin(), serverForm("admin", "admin", async (_c, id, body) => {
    let definition: ServerDefinition;
    try {
      definition = JSON.parse(String(body.definition ?? ""));
    } catch {
      throw new KilnError("ErrInvalidJson");
    }
    if (!definition || typeof definition !== "object" || Array.isArray(definition)) throw new KilnError("ErrInvalidJson");
    await replaceDefinition(deps.db, id, definition);
    return "serverAdmin.saved";
  }));

  app.post("/server/:id/reload", requirePageLogin(), serverForm("admin", "admin", async (_c, id) => {
    await nodeCall(id, "reload");
    return "serverAdmin.reloaded";
  }));

  app.post("/server/:id/delete", requirePageLogin(), async (c) => {
    const { id, server, access } = load(c, "deleteServer");
    try {
      await deleteServer(deps.db, id);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return serverPage(c, server, access, "admin", { error: message(c, error) }, error.status);
    }
    flash(c, "serverAdmin.deleted");
    return c.redirect("/server", 303);
  });

  app.post("/server/:id/oauth2", requirePageLogin(), serverForm("view", "admin", async (c, id, body) => {
    if (c.get("user")!.clientId) throw new KilnError("ErrNoPermission");
    return { createdClient: await createClient(deps.db, c.get("user")!.id, parseWith(API_SCHEMAS.oauth2Create, body), id) };
  }));

  app.post("/server/:id/oauth2/:clientId/delete", requirePageLogin(), serverForm("view", "admin", (c, id, body) => {
    if (body.ack !== "on") throw new KilnError("ErrFieldRequired", { field: "ack" });
    deleteClient(deps.db, c.get("user")!.id, c.req.param("clientId")!, id);
    return "oauth.deleted";
  }));

  return app;
}

/** One folder of a backup for the Backups tab's browser, or what the node said instead (a backup or folder that is not there). */
async function backupBrowse(backups: NodeBackups, backup: string, path: string, say: (error: KilnError) => string): Promise<BackupBrowse> {
  try {
    return { backup, path, folder: await backups.folder(backup, path) };
  } catch (error) {
    if (!(error instanceof KilnError)) throw error;
    return { backup, path, error: say(error) };
  }
}
