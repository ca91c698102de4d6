// A local stand-in for the platforms' version lists (test/fixtures/platforms): PaperMC's versions
// with their builds under /papermc (the panel's papermc source URL), Fabric's loaders under
// /fabric (its fabric source URL) and NeoForge's Maven listing under /neoforge (its neoforge
// source URL), answered with recorded real answers; Forge's Maven listing under /forge (its forge
// source URL), the install tests' stand-in listing (test/fixtures/sources/forge: no recorded copy
// with a known licence was found), and Purpur's builds under /purpur (its purpur source URL), built
// in its API's shape for the same reason, and Quilt's loaders under /quilt (its quilt source URL),
// likewise. A test may make it hang or
// answer a path with something else (`override`), and reads which paths were asked.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const DIR = join(import.meta.dir, "..", "fixtures", "platforms");
const read = (path: string) => readFileSync(join(DIR, path), "utf8");

/** The recorded answers by the path asked, the source's base URL left out. */
const RECORDED: Record<string, () => string> = {
  "/papermc/projects/paper/versions": () => read("papermc/projects_paper_versions_with_alphas.json"),
  // WireMock mappings: the recorded answer is the response's body.
  "/fabric/versions/loader/1.19.2": () => (JSON.parse(read("fabric-meta/v2_versions_loader_1_19_2.json")) as { response: { body: string } }).response.body,
  "/fabric/versions/loader/1.19.3": () => (JSON.parse(read("fabric-meta/v2_versions_loader_1_19_3.json")) as { response: { body: string } }).response.body,
  "/neoforge/releases/net/neoforged/neoforge/maven-metadata.xml": () => read("neoforge/maven-metadata.xml"),
  // Built in Purpur's API's shape (no recorded answer with a known licence was found), as the install tests' stand-in answers.
  "/purpur/v2/purpur/1.21.1": () => JSON.stringify({ project: "purpur", version: "1.21.1", builds: { latest: "2329", all: ["2300", "2301", "2327", "2328", "2329"] } }),
  // Built in Quilt's meta's shape (v3), for the same reason: its loaders newest first, a beta among them.
  "/quilt/versions/loader/1.21.1": () => JSON.stringify(["0.26.4", "0.26.4-beta.2", "0.26.3", "0.25.0"].map((version) => ({ loader: { separator: ".", build: 1, maven: `org.quiltmc:quilt-loader:${version}`, version }, hashed: { maven: "org.quiltmc:hashed:1.21.1", version: "1.21.1" }, intermediary: { maven: "net.fabricmc:intermediary:1.21.1", version: "1.21.1" }, launcherMeta: { version: 1 } }))),
  "/forge/net/minecraftforge/forge/maven-metadata.xml": () => readFileSync(join(DIR, "..", "sources", "forge", "net", "minecraftforge", "forge", "maven-metadata.xml"), "utf8"),
};

export interface PlatformListsFixture {
  /** The papermc source's base URL (as PaperMC's `https://fill.papermc.io/v3`). */
  papermc: string;
  /** The fabric source's base URL (as Fabric's `https://meta.fabricmc.net/v2`). */
  fabric: string;
  /** The neoforge source's base URL (as NeoForge's Maven, `https://maven.neoforged.net`). */
  neoforge: string;
  /** The forge source's base URL (as Forge's Maven, `https://maven.minecraftforge.net`). */
  forge: string;
  /** The purpur source's base URL (as Purpur's API, `https://api.purpurmc.org`). */
  purpur: string;
  /** The quilt source's base URL (as Quilt's meta, `https://meta.quiltmc.org/v3`). */
  quilt: string;
  /** Paths asked, in order. */
  asked: string[];
  /** While true, no request is answered. */
  hang: boolean;
  /** Answers by path in place of the recorded ones. */
  override: Map<string, () => Response>;
  /** The recorded answer of `path`, parsed. */
  recorded(path: string): unknown;
  stop(): void;
}

export function startPlatformListsFixture(): PlatformListsFixture {
  const held: (() => void)[] = [];
  const fixture: PlatformListsFixture = {
    papermc: "",
    fabric: "",
    neoforge: "",
    forge: "",
    purpur: "",
    quilt: "",
    asked: [],
    hang: false,
    override: new Map(),
    recorded: (path) => JSON.parse(RECORDED[path]!()),
    stop: () => {
      for (const release of held) release();
      server.stop(true);
    },
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      fixture.asked.push(path);
      if (fixture.hang) return new Promise<Response>((resolve) => held.push(() => resolve(new Response("", { status: 503 }))));
      const override = fixture.override.get(path);
      if (override) return override();
      const recorded = RECORDED[path];
      if (recorded) return new Response(recorded(), { headers: { "content-type": path.endsWith(".xml") ? "application/xml" : "application/json" } });
      if (path.startsWith("/papermc/") || path.startsWith("/purpur/")) return Response.json({ error: "Version not found." }, { status: 404 });
      if (path.startsWith("/fabric/versions/loader/") || path.startsWith("/quilt/versions/loader/")) return Response.json([]);
      return new Response("not found", { status: 404 });
    },
  });
  fixture.papermc = `http://127.0.0.1:${server.port}/papermc`;
  fixture.fabric = `http://127.0.0.1:${server.port}/fabric`;
  fixture.neoforge = `http://127.0.0.1:${server.port}/neoforge`;
  fixture.forge = `http://127.0.0.1:${server.port}/forge`;
  fixture.purpur = `http://127.0.0.1:${server.port}/purpur`;
  fixture.quilt = `http://127.0.0.1:${server.port}/quilt`;
  return fixture;
}
