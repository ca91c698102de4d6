// A socket holds a place (a row, kind `socket`, naming its panel process) from its opening to its
// closing; the sweep takes only the rows of panels gone. Giving the place back is one deletion, and
// when the database refused it (SQLite busy past its timeout while another connection, a `kiln`
// command or a backup of the file, held the write lock; PostgreSQL out of reach for a moment), the
// row stayed for as long as its panel ran: the user had one place fewer on that server, through
// every panel, and five such closings locked a reader out of its console until a restart. The
// deletion is now tried again until the row goes. Played on one SQLite file with a second
// connection that holds the write lock while a socket closes.
import { afterEach, beforeAll, expect, test } from "bun:test";
import { and, count, eq, like } from "drizzle-orm";
import { schema, type Db } from "../../db";
import { MAX_SOCKETS_PER_USER, releaseSocketPlace, takeSocketPlace } from "../../server/live-proxy/socket-places";
import type { ProxySocketData } from "../../server/live-proxy/socket-data";
import { removeSqliteFolders, twoSqliteConnections } from "../helpers/database";
import { eventually } from "../helpers/node";

let panel: Db;
let other: Db;
beforeAll(async () => {
  [panel, other] = await twoSqliteConnections();
  // Busy for 50 ms, not 5 s, before the refusal: bun:sqlite waits holding the event loop.
  panel.$kiln.sqlite!.run("PRAGMA busy_timeout = 50");
});
afterEach(removeSqliteFolders);

const serverId = "0ad0e1a5";
const data = { db: undefined as unknown as Db, serverId, access: { admin: false }, actor: { type: "user", id: "reader", name: "reader" } } as unknown as ProxySocketData;
/** The rows every panel counts for this server. */
const rows = async () => (await other.select({ n: count() }).from(schema.oneTimeValues).where(and(eq(schema.oneTimeValues.kind, "socket"), like(schema.oneTimeValues.key, `${serverId}|%`))).get())?.n ?? 0;

test("a place whose release the database refused once is given back when it answers again", async () => {
  data.db = panel;
  const sockets = Array.from({ length: MAX_SOCKETS_PER_USER }, () => ({}));
  for (const socket of sockets) await takeSocketPlace(socket, data);
  expect(await rows()).toBe(MAX_SOCKETS_PER_USER);

  // Another connection to the file holds the write lock while the first socket closes.
  other.$kiln.sqlite!.run("BEGIN EXCLUSIVE");
  let refused: unknown;
  try {
    await releaseSocketPlace(sockets[0]!, data).catch((error: unknown) => (refused = error));
  } finally {
    other.$kiln.sqlite!.run("COMMIT");
  }
  expect((refused as { cause?: { code?: string } }).cause?.code).toBe("SQLITE_BUSY");

  // The row goes once the database answers, and the user's place with it, for every panel.
  await eventually(async () => (await rows()) === MAX_SOCKETS_PER_USER - 1, 10_000, "the refused release to be tried again");
  await takeSocketPlace({}, data);
  expect(await rows()).toBe(MAX_SOCKETS_PER_USER);
  await expect(takeSocketPlace({}, data)).rejects.toMatchObject({ code: "ErrTooManyRequests" });
});
