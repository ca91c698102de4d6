// `kiln panel` with its local node in a process of its own (KILN_LOCAL_NODE=process), as a real
// process, and its API as the first administrator.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { KILN, freePort, startKiln, tempDir } from "./process";

const ADMIN = { email: "admin@example.com", password: "adminpassword" };
const NODE_LINE = /local node listening on (\S+) \(process (\d+)\)/;

/** `localNode`: the config file's localNode section (sources for the tests' fixtures). */
export async function startPanelWithNodeProcess(localNode: Record<string, unknown> = {}) {
  const data = tempDir();
  const config = join(data, "kiln.json");
  writeFileSync(config, JSON.stringify({ localNode }));
  const port = await freePort();
  const kiln = await startKiln([...KILN, "panel"], { KILN_CONFIG: config, KILN_DATA: data, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0", KILN_LOCAL_NODE: "process", KILN_ADMIN_EMAIL: ADMIN.email, KILN_ADMIN_PASSWORD: ADMIN.password }, NODE_LINE);
  const base = `http://127.0.0.1:${port}`;
  const login = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
  const token = ((await login.json()) as { session: string }).session;
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { kiln, call, data, nodeUrl: kiln.match[1]!, nodePid: Number(kiln.match[2]) };
}

export type PanelWithNodeProcess = Awaited<ReturnType<typeof startPanelWithNodeProcess>>;
