// bench/servers-list: GET /api/servers on a database of 10,000 servers (budget: under 5 ms at the
// median), through the real app on a real SQLite file, for an admin (every server) and for a user
// who shares 200 of them. Pages are picked at random over the whole list. A real node answers the
// one players call each page makes (it holds none of these servers: the call's cost, not a count's).
// In-process (the app called as a function, no kiln process), so KILN_BENCH_EXE does not apply.
//   bun bench/servers-list.ts [servers]
import { join } from "node:path";
import { openDatabase, schema } from "../db";
import { loadAssets } from "../server/assets";
import { loadThemes } from "../server/themes";
import { createApp } from "../server/app";
import { loadConfig } from "../server/config";
import { createUser } from "../server/services/users";
import { createSession } from "../server/services/sessions";
import { LoginThrottle } from "../server/services/auth/throttle";
import { ChallengeStore } from "../server/services/passkeys/challenges";
import { SCOPES, SERVER_FLAGS } from "../core/scopes";
import { tempDir } from "../test/helpers/process";
import { startTestNode } from "../test/helpers/node";
import { machine, median, ms, percentile, table, verdict } from "./lib/figures";

const BUDGET_MS = 5;
const AIM_MS = 1;
const SERVERS = Number(process.argv[2] ?? 10_000);
const REQUESTS = 2000;

const db = await openDatabase(join(tempDir("kiln-bench-"), "kiln.db"));
const daemon = await startTestNode();
const node = await db.insert(schema.nodes).values({ name: "bench", publicHost: "{ip}", publicPort: daemon.node.port, privateHost: "127.0.0.1", privatePort: daemon.node.port, sftpPort: 5657, secret: daemon.config.secret, createdAt: new Date() }).returning().get();
const admin = await createUser(db, { email: "admin@example.com", username: "admin", password: "password123", scopes: [SCOPES.admin] });
const user = await createUser(db, { email: "user@example.com", username: "someone", password: "password123", scopes: [SCOPES.serversView] });
await db.transaction(async (tx) => {
  for (let i = 0; i < SERVERS; i++) {
    const id = i.toString(16).padStart(8, "0");
    await tx.insert(schema.servers).values({ id, name: `server ${i}`, nodeId: node.id, template: "bench", ip: i % 2 ? "{ip}" : `10.0.${(i >> 8) & 255}.${i & 255}`, port: 25565 + (i % 100), createdAt: new Date() }).run();
    if (i % 50 === 0) await tx.insert(schema.serverUsers).values({ serverId: id, userId: user.id, flags: [...SERVER_FLAGS] }).run();
  }
});

const assets = await loadAssets();
const app = createApp({ config: loadConfig({}, "/tmp"), db, assets, themes: loadThemes(assets.statics), throttle: new LoginThrottle(), challenges: new ChallengeStore(db) });

async function run(label: string, token: string, pages: number) {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS + 100; i++) {
    const page = 1 + Math.floor(Math.random() * pages);
    const start = performance.now();
    const res = await app.request(`http://localhost/api/servers?page=${page}&limit=10`, { headers: { authorization: `Bearer ${token}`, host: "localhost" } });
    const body = (await res.json()) as { servers: unknown[] };
    const took = performance.now() - start;
    if (res.status !== 200 || body.servers.length === 0) throw new Error(`unexpected answer ${res.status}`);
    if (i >= 100) times.push(took); // the first hundred warm the caches and the JIT
  }
  return [label, ms(median(times)), ms(percentile(times, 95)), ms(percentile(times, 99))];
}

console.log(machine());
const rows = [await run(`admin, ${SERVERS} servers`, await createSession(db, admin.id), SERVERS / 10), await run(`user sharing ${SERVERS / 50} of them`, await createSession(db, user.id), SERVERS / 500)];
table(["caller", "median", "p95", "p99"], rows);
const worst = Math.max(...rows.map((r) => parseFloat(String(r[1]))));
console.log(`\nbudget: GET /api/servers answers in under ${BUDGET_MS} ms at the median [aim ${AIM_MS} ms]: ${verdict(worst, BUDGET_MS, AIM_MS)}`);
await db.$kiln.close();
await daemon.stop();
