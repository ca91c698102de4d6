// The yardstick of bench/throughput: a bare Hono app with one JSON route (what the framework
// serves with nothing of Kiln's in front), or with `bun` as its argument Bun.serve alone.
//   bun bench/lib/bare-hono.ts <port> [hono|bun]
import { Hono } from "hono";

const port = Number(process.argv[2]);
const body = { name: "kiln", version: "0.0.0", features: ["servers", "files", "backups"] };
if (process.argv[3] === "bun") {
  Bun.serve({ hostname: "127.0.0.1", port, fetch: () => Response.json(body) });
} else {
  const app = new Hono();
  app.get("/api/config", (c) => c.json(body));
  Bun.serve({ hostname: "127.0.0.1", port, fetch: app.fetch });
}
console.log(`listening on ${port}`);
