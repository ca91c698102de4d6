// A local stand-in for the sites the PufferPanel v3 fixture templates reach
// (test/fixtures/pufferpanel-v3): Terraria's dedicated-server zip and a SteamCMD whose 7 Days to
// Die install is a fake game with a real telnet console (busybox nc). The fake programs are
// shell scripts; everything else comes from startFixtureSources (Mojang, Java).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZipFile } from "yazl";

/** The fake 7 Days to Die: a telnet console on $telnetport (optionally asking $telnetpassword), stopped by "shutdown" there. */
export const FAKE_7DTD = `#!/bin/sh
echo "7 Days to Die (Kiln fixture) starting with: $*"
cat > .telnet-session.sh <<'SESSION'
#!/bin/sh
if [ -n "$telnetpassword" ]; then
  printf 'Please enter password:\\r\\n'
  IFS= read -r pass
  pass=$(printf %s "$pass" | tr -d '\\r')
  [ "$pass" = "$telnetpassword" ] || { printf 'Password incorrect, please enter password:\\r\\n'; exit 1; }
  printf 'Logon successful.\\r\\n'
fi
printf '*** Connected with 7DTD server.\\r\\n'
while IFS= read -r line; do
  line=$(printf %s "$line" | tr -d '\\r')
  case "$line" in
    shutdown) printf 'Shutting server down...\\r\\n'; kill -TERM "$(cat .game.pid)"; exit 0 ;;
    '') ;;
    *) printf "Executing command '%s' by Telnet\\r\\n" "$line" ;;
  esac
done
SESSION
chmod +x .telnet-session.sh
echo $$ > .game.pid
busybox nc -ll -p "$telnetport" -e ./.telnet-session.sh &
listener=$!
trap 'kill $listener 2>/dev/null; echo "7 Days to Die: world saved, shutting down"; exit 0' TERM
echo "Started Telnet on $telnetport"
wait
`;

const STEAMCMD = `#!/bin/sh
# SteamCMD stand-in: +force_install_dir DIR +app_update 294420 installs the fake 7 Days to Die.
dir=""; app=""
while [ $# -gt 0 ]; do
  case "$1" in +force_install_dir) dir="$2"; shift ;; +app_update) app="$2"; shift ;; esac
  shift
done
[ "$app" = 294420 ] || { echo "unknown app $app"; exit 8; }
cp "$(dirname "$0")/fake-7dtd.sh" "$dir/7DaysToDieServer.x86_64"
echo "Success! App '$app' fully installed."
`;

const FAKE_TERRARIA = `#!/bin/sh
echo "Terraria Server (Kiln fixture) starting with: $*"
echo "config: $(tr '\\n' ' ' < serverconfig.txt)"
while IFS= read -r line; do
  [ "$line" = exit ] && { echo "Terraria: saving world, exiting"; exit 0; }
  echo "Terraria console: $line"
done
`;

export interface V3FixtureSite {
  base: string;
  /** The SteamCMD download host (the node's sources.steamcmd). */
  steamcmd: string;
  /** Terraria's download folder (the fixture template's downloadBase). */
  terraria: string;
  stop(): void;
}

function zip(entries: Array<{ name: string; data: string; mode?: number }>): Promise<Buffer> {
  const file = new ZipFile();
  for (const e of entries) file.addBuffer(Buffer.from(e.data), e.name, { mode: e.mode ?? 0o100644 });
  file.end();
  return new Response(file.outputStream as unknown as ReadableStream).arrayBuffer().then((b) => Buffer.from(b));
}

export async function startV3FixtureSite(): Promise<V3FixtureSite> {
  const work = mkdtempSync(join(tmpdir(), "kiln-v3-site-"));
  const steam = join(work, "steamcmd");
  mkdirSync(steam);
  writeFileSync(join(steam, "steamcmd.sh"), STEAMCMD);
  writeFileSync(join(steam, "fake-7dtd.sh"), FAKE_7DTD);
  chmodSync(join(steam, "steamcmd.sh"), 0o755);
  const tar = Bun.spawnSync(["tar", "-czf", join(work, "steamcmd.tar.gz"), "-C", steam, "steamcmd.sh", "fake-7dtd.sh"]);
  if (tar.exitCode !== 0) throw new Error(`tar failed: ${tar.stderr.toString()}`);
  const terrariaZip = await zip([
    { name: "1449/Linux/TerrariaServer", data: FAKE_TERRARIA, mode: 0o100755 },
    { name: "1449/Linux/TerrariaServer.bin.x86_64", data: "stand-in\n", mode: 0o100755 },
    { name: "1449/Windows/TerrariaServer.exe", data: "stand-in\n" },
  ]);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/steamcmd/client/installer/steamcmd_linux.tar.gz") return new Response(Bun.file(join(work, "steamcmd.tar.gz")));
      if (path === "/terraria/terraria-server-1449.zip") return new Response(new Uint8Array(terrariaZip));
      return new Response("not found", { status: 404 });
    },
  });
  const base = `http://127.0.0.1:${server.port}`;
  return {
    base,
    steamcmd: `${base}/steamcmd`,
    terraria: `${base}/terraria`,
    stop() {
      void server.stop(true);
      rmSync(work, { recursive: true, force: true });
    },
  };
}
