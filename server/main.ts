// Entry point: argv → panel, daemon, user add, version or help.
import pkg from "../package.json";
import { loadConfig, ConfigError } from "./config";
import { parseArgs } from "./cli/args";
import { HELP } from "./cli/help";
import { dropStartPagesSoon } from "./cli/start-pages";

export async function runCli(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number | "running"> {
  const args = parseArgs(argv);
  if (args.flags.help || args.positional[0] === "help") {
    console.log(HELP);
    return 0;
  }
  const [command = "panel", sub] = args.positional;
  if (command === "version" || args.flags.version) {
    console.log(`kiln ${pkg.version}`);
    return 0;
  }
  if (command === "daemon") {
    // A node has its own configuration (daemon/config.ts), not the panel's.
    const { runDaemon } = await import("../daemon/main");
    return whenRunning(await runDaemon(env));
  }
  if (command === "local-node") {
    // The panel's node in a process of its own: its configuration comes from the panel.
    const { runLocalNodeChild } = await import("./cli/local-node");
    return whenRunning(runLocalNodeChild());
  }
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`kiln: ${error.message}`);
    return 2;
  }
  switch (command) {
    case "panel": {
      // Beside other panels on one database, nodes run as `kiln daemon`: none in the panel's process.
      if (args.flags["no-local-node"]) config.localNode.enabled = false;
      const { runPanel } = await import("./cli/panel");
      await runPanel(config);
      return whenRunning("running");
    }
    case "db": {
      const { dbCommand } = await import("./cli/db");
      return dbCommand(config, args);
    }
    case "user":
      if (sub === "add") {
        const { userAdd } = await import("./cli/user-add");
        return userAdd(config, args);
      }
      console.error("kiln user: the only subcommand is `add`; see kiln --help");
      return 2;
    default:
      console.error(`kiln: unknown command "${command}"; see kiln --help`);
      return 2;
  }
}

/** A panel or node that is now serving hands back the pages only its start needed. */
function whenRunning(code: number | "running"): number | "running" {
  if (code === "running") dropStartPagesSoon();
  return code;
}

if (import.meta.main) {
  // A checkout started as the README says (npm start) serves what the executable serves: React's
  // production build (build.ts defines NODE_ENV so), not its development one, which renders a page
  // a quarter slower. Set before any page module loads React (each command imports its own).
  process.env.NODE_ENV ??= "production";
  const code = await runCli(process.argv.slice(2));
  if (code !== "running") process.exit(code);
}
