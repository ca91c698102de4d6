// What each tab of the server page shows, gathered on the server so the page works before any
// script: the console's recent output, the folder asked for, the tasks with their last and next
// run, the users, the backups (and a backup being browsed), the players' lists, the server's mod
// platform and installed add-ons, the server's ports (./network-content), the admin card.
import type { Context } from "hono";
import { KilnError } from "../../../core/errors";
import { SERVER_FLAGS } from "../../../core/scopes";
import { describeSchedule } from "../../../core/cron/describe";
import { normalizePath, sftpDetails, type FolderListing } from "../../../core/files";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { callServerNode, fetchDefinition, holdsAllFlags, listServerUsers, serverNode, speaksForOwners, type ServerAccess, type ServerEntry } from "../../services/servers";
import { allows } from "../../../core/scopes/server-access";
import { editableVariables } from "../../services/servers/variables";
import { listTasks, usableOperations, usableTriggers } from "../../services/tasks";
import { listClients } from "../../services/oauth2";
import { sftpAccess } from "../../services/sftp";
import { NodeBackups, NodeBackupTargets } from "../../services/backups";
import { NodeFiles } from "../../services/files/node-files";
import { requestHost } from "../servers";
import type { ServerTab } from "../../../views/pages/server/tabs";
import { SettingsTab } from "../../../views/pages/server/SettingsTab";
import { UsersTab } from "../../../views/pages/server/UsersTab";
import { AdminTab } from "../../../views/pages/server/AdminTab";
import { FilesTab } from "../../../views/pages/server/FilesTab";
import { ConsoleTab } from "../../../views/pages/server/ConsoleTab";
import { StatsTab } from "../../../views/pages/server/StatsTab";
import { BackupsTab, type BackupBrowse } from "../../../views/pages/server/BackupsTab";
import { TasksTab } from "../../../views/pages/server/TasksTab";
import { PlayersTab } from "../../../views/pages/server/PlayersTab";
import { playersFor } from "../../services/players";
import { listView, listWanted, onlineView, type ListView } from "../../services/players/tab";
import { modsFor, PAGE_SOURCE_TIMEOUT_MS } from "../../services/mods";
import { modpacksFor } from "../../services/mods/packs";
import { asksAddons, asksPacks, modsSearch, packsSearch } from "./mods-search";
import { ModsTab } from "../../../views/pages/server/ModsTab";
import { PLAYER_LIST_NAMES, type PlayerList } from "../../../core/players/player-lists";
import type { StepValue } from "../../../islands/definition/convert";
import type { Extras } from "./host";
import { listActivity } from "../../services/activity/list";
import { isEventPattern } from "../../../core/activity";
import { screenPage } from "../../paging";
import { ActivityTab } from "../../../views/pages/server/ActivityTab";
import { ruleFlagsOn } from "../../services/sso/held-grants";
import { networkContent } from "./network-content";
import { latestTransfer } from "../../services/transfers";
import { listNodes } from "../../services/nodes";
import { signInName } from "../../services/users/unconfirmed-hold";

const ACTIVITY_PAGE_SIZE = 25;

/** The console tab arrives with the last part of the buffer; the island replays what is newer. */
const INITIAL_CONSOLE_BYTES = 64 * 1024;

type Say = (c: Context<KilnEnv>, error: KilnError) => string;

export async function tabContent(deps: Deps, c: Context<KilnEnv>, server: ServerEntry, access: ServerAccess, tab: ServerTab, extras: Extras, say: Say) {
  const user = c.get("user")!;
  switch (tab) {
    case "console": {
      // The node sends only the end the page shows (?tail=): the whole buffer is up to 4 MiB.
      const response = await callServerNode(deps.db, server.id, "console", {}, { query: `?tail=${INITIAL_CONSOLE_BYTES}` });
      const { logs, epochMs: epoch } = (await response.json()) as { logs: string[]; epochMs: number };
      const text = logs.join("");
      // A cut end starts at its first whole line.
      const tail = text.length >= INITIAL_CONSOLE_BYTES ? text.slice(text.indexOf("\n") + 1) : text;
      const canSend = allows(access, "sendServerConsole");
      const canSeeStats = allows(access, "viewServerStats");
      return <ConsoleTab serverId={server.id} address={server.address} canSend={canSend} canSeeStats={canSeeStats} initialLogs={tail} initialEpoch={epoch} />;
    }
    case "stats":
      return <StatsTab serverId={server.id} />;
    case "files": {
      const node = await serverNode(deps.db, server.id);
      const mayView = allows(access, "viewServerFiles");
      const maySftp = allows(access, "sftpServer");
      const path = extras.files?.folder ?? normalizePath(c.req.query("path") ?? "");
      const files = mayView ? { canEdit: allows(access, "putServerFiles"), path, ...(await initialListing(deps, c, server.id, path, say)), search: await fileSearch(deps, c, server.id, path, say), pending: extras.files?.pending ?? null } : null;
      const sftp = maySftp ? { details: sftpDetails(node.publicHost, node.sftpPort, requestHost(c), signInName(user), server.id), access: sftpAccess(access) } : null;
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
        triggers: task.triggers ?? [],
        cooldownSeconds: task.cooldownSeconds ?? null,
        conditions: task.conditions ?? {},
        description: describeSchedule(task.cronSchedule, locale),
        lastRun: task.lastRun ?? null,
        nextRun: task.nextRun ?? null,
      }));
      const failed = extras.failedTask;
      const keptSteps = (failed?.taskId && (stored[failed.taskId]?.operations as StepValue[] | undefined)) || [];
      const keptTriggers = (failed?.taskId && stored[failed.taskId]?.triggers) || [];
      const failedValues = failed && { ...failed, values: { ...failed.values, operations: failed.values.operations ?? keptSteps, triggers: failed.values.triggers ?? keptTriggers } };
      return <TasksTab serverId={server.id} tasks={tasks} operationTypes={usableOperations(access)} triggerTypes={usableTriggers(access)} failed={failedValues} />;
    }
    case "users": {
      // Removing someone takes all their flags away: only a caller holding every one of them may.
      // Flags a sign-in rule granted are the rule's: locked here, and their holder not removable, until detached.
      const ruled = await ruleFlagsOn(deps.db, server.id);
      const users = (await listServerUsers(deps.db, server.id)).map((u) => ({ ...u, ruleFlags: ruled.get(u.userId) ?? {}, removable: holdsAllFlags(access, SERVER_FLAGS.filter((f) => u[f])) }));
      const addError = extras.error !== undefined && extras.errorField === "email" ? { message: extras.error, field: "email" } : undefined;
      return <UsersTab serverId={server.id} users={users} grantable={access.permissions} invited={extras.invited} addError={addError} addPosted={addError ? extras.posted : undefined} />;
    }
    case "backups": {
      const backups = new NodeBackups(deps.db, server.id);
      const [{ backups: list, running }, { ignore }] = await Promise.all([backups.list(), backups.settings()]);
      // ?browse=<backup>&path=…: the restore dialog browsing one folder of that backup.
      const browsed = c.req.query("browse");
      const browse = browsed ? await backupBrowse(backups, browsed, c.req.query("path") ?? "", await speaksForOwners(deps.db, user, access, server.id), (error) => say(c, error)) : undefined;
      return <BackupsTab serverId={server.id} backups={list} running={running} ignore={ignore} browse={browse} adopts={access.admin} />;
    }
    case "players": {
      // Each part on its own: a list file the game left broken says so in its card, not the tab.
      const players = await playersFor(deps.db, user, server.id);
      const said = (error: unknown) => {
        if (error instanceof KilnError) return { error: say(c, error) };
        throw error;
      };
      // One page of each list, the page and search the address names for it (services/players/tab).
      const query = c.req.query();
      const [online, ...lists] = await Promise.all([
        onlineView(players).catch((error: unknown) => (error instanceof KilnError && error.code === "ErrServerOffline" ? null : said(error))),
        ...PLAYER_LIST_NAMES.map((list) => listView(players, list, listWanted(query, list)).catch(said)),
      ]);
      const byList = Object.fromEntries(PLAYER_LIST_NAMES.map((list, i) => [list, lists[i]!])) as Record<PlayerList, ListView | { error: string }>;
      return <PlayersTab serverId={server.id} online={online} lists={byList} />;
    }
    case "mods": {
      // The platform first (it names the tab); the installed list on its own: a node that cannot
      // list the folder says so in the list's card. A source that does not answer costs only the
      // titles (services/mods lists the files without them).
      const mods = await modsFor(deps.db, user, server.id);
      const said = (error: unknown) => {
        if (error instanceof KilnError) return { error: say(c, error) };
        throw error;
      };
      const platform = await mods.platform().catch(said);
      // The page waits at most PAGE_SOURCE_TIMEOUT_MS per question to the source: one that hangs costs the titles, not the page.
      const installed = "error" in platform || !platform.folder ? { files: [], undoable: null } : await mods.installed({ sourceTimeoutMs: PAGE_SOURCE_TIMEOUT_MS, platform }).catch(said);
      // What a page without script asked for in the address: a search of either pane, a project.
      const query = c.req.query();
      const search = asksAddons(query) ? await modsSearch(mods, query).catch(said) : undefined;
      const packSearch = asksPacks(query) ? await packsSearch(await modpacksFor(deps.db, user, server.id), query).catch(said) : undefined;
      const project = query.project ? await mods.project(query.project, query.source).catch(said) : undefined;
      return <ModsTab serverId={server.id} platform={platform} installed={installed} plan={extras.modsPlan} project={project} search={search} packSearch={packSearch} />;
    }
    case "network":
      return await networkContent(deps, c, server, access);
    case "activity": {
      // A malformed event filter shows the whole log rather than an error page: a person edited the address.
      const wanted = (c.req.query("event") ?? "").trim();
      const event = isEventPattern(wanted) ? wanted : "";
      const page = screenPage(c);
      const { events, total } = await listActivity(deps.db, user, { serverId: server.id, event: event || undefined, page, limit: ACTIVITY_PAGE_SIZE });
      return <ActivityTab serverId={server.id} events={events} page={page} pages={Math.max(1, Math.ceil(total / ACTIVITY_PAGE_SIZE))} event={event} canManageWebhooks={allows(access, "manageWebhooks")} />;
    }
    case "admin": {
      const definition = access.admin ? await fetchDefinition(deps.db, server.id).catch(() => null) : null;
      // The backup policy, with the node's targets to choose from (null when the node does not answer).
      const backupPolicy = access.admin && definition ? await backupPolicyOf(deps, c, server.id).catch(() => null) : null;
      return (
        <AdminTab
          serverId={server.id}
          clients={await listClients(deps.db, user.id, server.id)}
          created={extras.createdClient}
          admin={access.admin}
          canDelete={allows(access, "deleteServer")}
          definition={definition}
          backupPolicy={backupPolicy}
          transfer={access.admin ? { latest: await latestTransfer(deps.db, user, server.id), nodes: (await listNodes(deps.db)).filter((node) => node.id !== server.nodeId).map(({ id, name, draining }) => ({ id, name, draining })) } : null}
        />
      );
    }
  }
}

/**
 * The folder the files tab was asked for, listed on the server so the tab works before script.
 * A refusal (a node that does not answer, a folder that is not there) is said where the listing
 * would be, with a retry, never shown as an empty folder; a path that names a file is null, and
 * the file manager asks again in the browser.
 */
async function initialListing(deps: Deps, c: Context<KilnEnv>, id: string, path: string, say: Say): Promise<{ listing: FolderListing | null; error: string | null }> {
  try {
    return { listing: await new NodeFiles(deps.db, id).list(path), error: null };
  } catch (error) {
    if (!(error instanceof KilnError)) throw error;
    return { listing: null, error: say(c, error) };
  }
}

/** The search by name the files tab's address asks for (?q=), below the folder shown. */
async function fileSearch(deps: Deps, c: Context<KilnEnv>, id: string, folder: string, say: Say) {
  const query = (c.req.query("q") ?? "").trim();
  if (query === "") return null;
  try {
    return { query, folder, found: await new NodeFiles(deps.db, id).search(folder, query) };
  } catch (error) {
    if (!(error instanceof KilnError)) throw error;
    return { query, folder, error: say(c, error) };
  }
}

async function backupPolicyOf(deps: Deps, c: Context<KilnEnv>, id: string) {
  const [{ policy }, targets] = await Promise.all([new NodeBackups(deps.db, id).settings(), new NodeBackupTargets(deps.db, (await serverNode(deps.db, id)).id, c.get("user")!).list()]);
  return { policy, targets };
}

/** One folder of a backup for the restore dialog, or what stopped it (said where the listing would be). */
async function backupBrowse(backups: NodeBackups, backup: string, path: string, owners: boolean, say: (error: KilnError) => string): Promise<BackupBrowse> {
  try {
    return { backup, path, folder: await backups.folder(backup, path, owners) };
  } catch (error) {
    if (!(error instanceof KilnError)) throw error;
    return { backup, path, error: say(error) };
  }
}
