// The server list screen: search by name or id, filter
// by node and status, sort by name, node or owner, paged; all in the address (a GET form), so the
// list works without script and in one request. Each row's status comes from its node when the
// page is made (bounded, see services/servers/live-values); CPU and memory arrive from the list's
// one small island, which polls /api/servers/live for the rows shown.
import { Hono, type Context } from "hono";
import { SCOPES, hasScope } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { renderKept } from "../render";
import { requirePageLogin } from "../middleware/require";
import { DEFAULT_PAGE_SIZE, screenPage } from "../paging";
import { SERVER_SORTS, nodesOfVisibleServers, searchServers, type ServerQuery, type ServerSort } from "../services/servers/search";
import { STATUS_SCAN_MAX, liveValues, type LiveStatus } from "../services/servers/live-values";
import { requestHost } from "./servers";
import { playersReadableBy } from "../services/servers/players-query";
import { ServersPage, type ListQuery } from "../../views/pages/ServersPage";

const STATUS_FILTERS = ["online", "offline"] as const;

/** The list's query from the address; anything unexpected is simply ignored (it is a filter, not a form to refuse). */
function listQuery(c: Context): ListQuery {
  const sort = c.req.query("sort");
  const status = c.req.query("status");
  const node = Number(c.req.query("node"));
  return {
    q: (c.req.query("q") ?? "").slice(0, 64),
    nodeId: Number.isSafeInteger(node) && node > 0 ? node : null,
    status: (STATUS_FILTERS as readonly string[]).includes(status ?? "") ? (status as LiveStatus) : null,
    sort: (SERVER_SORTS as readonly string[]).includes(sort ?? "") ? (sort as ServerSort) : "name",
    descending: c.req.query("dir") === "desc",
  };
}

export function serverListRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();

  app.get("/server", requirePageLogin(), async (c) => {
    const user = c.get("user")!;
    const query = listQuery(c);
    const search: ServerQuery = { q: query.q, nodeId: query.nodeId, sort: query.sort, descending: query.descending };
    let page = screenPage(c);
    const host = requestHost(c);
    let servers;
    let total;
    let scanCapped = false;
    if (query.status) {
      // A status lives on the nodes, not in the database: the matching servers (at most
      // STATUS_SCAN_MAX) are asked, then filtered and paged here.
      const scanned = await searchServers(deps.db, user, search, 1, STATUS_SCAN_MAX, host);
      scanCapped = scanned.total > STATUS_SCAN_MAX;
      const live = await liveValues(deps.db, scanned.servers, () => false, await playersReadableBy(deps.db, user, scanned.servers.map((s) => s.id)));
      // A server still starting (its ready marker not seen) counts as online: its process runs.
      const matches = (status: LiveStatus | undefined) => status === query.status || (query.status === "online" && status === "starting");
      const matching = scanned.servers.filter((s) => matches(live[s.id]?.status)).map((s) => ({ ...s, status: live[s.id]!.status, players: live[s.id]!.players }));
      total = matching.length;
      page = Math.min(page, Math.max(1, Math.ceil(total / DEFAULT_PAGE_SIZE)));
      servers = matching.slice((page - 1) * DEFAULT_PAGE_SIZE, page * DEFAULT_PAGE_SIZE);
    } else {
      const found = await searchServers(deps.db, user, search, page, DEFAULT_PAGE_SIZE, host);
      const live = await liveValues(deps.db, found.servers, () => false, await playersReadableBy(deps.db, user, found.servers.map((s) => s.id)));
      total = found.total;
      servers = found.servers.map((s) => ({ ...s, status: live[s.id]?.status ?? ("unknown" as const), players: live[s.id]?.players }));
    }
    const props = {
      servers,
      query,
      nodes: await nodesOfVisibleServers(deps.db, user),
      page,
      pages: Math.max(1, Math.ceil(total / DEFAULT_PAGE_SIZE)),
      total,
      scanCapped,
      canCreate: hasScope(user.scopes, SCOPES.serversCreate),
    };
    // The page is polled while nothing changes: kept by everything it shows (server/render).
    return renderKept(c, deps, ["servers", props], () => <ServersPage {...props} />);
  });

  return app;
}
