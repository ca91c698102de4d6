// A container registry on loopback for dockerpull tests (no real registry is reachable here):
// the Docker Registry HTTP API v2 as the Engine reads it for a pull (GET /v2/, the manifest by
// tag, then the config and layer blobs by digest), serving one small image whose single layer
// holds pulled.txt. The Engine pulls from 127.0.0.0/8 over plain HTTP without configuration.
// Every request is recorded, so a test can tell whether a pull reached the registry.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface FakeRegistry {
  /** host:port, to put before a repository name: `${host}/kiln-test/pulled:1`. */
  host: string;
  /** Paths requested, in order ("GET /v2/kiln-test/pulled/manifests/1"). */
  requests: string[];
  stop(): void;
}

const sha256 = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const GO_ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64" };

/** One layer: a tar holding pulled.txt, made by tar(1) as a layer is. */
function layerTar(): Uint8Array<ArrayBuffer> {
  const dir = mkdtempSync(join(tmpdir(), "kiln-registry-"));
  try {
    writeFileSync(join(dir, "pulled.txt"), "pulled from the fixture registry\n");
    const tar = Bun.spawnSync(["tar", "-C", dir, "-c", "pulled.txt"]);
    if (tar.exitCode !== 0) throw new Error(`tar failed: ${tar.stderr.toString()}`);
    return new Uint8Array(tar.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Serves `repository` (e.g. "kiln-test/pulled") under each of `tags`. */
export function startFakeRegistry(repository: string, tags: string[]): FakeRegistry {
  const tar = layerTar();
  const layer = Bun.gzipSync(tar);
  const config = new TextEncoder().encode(JSON.stringify({
    architecture: GO_ARCH[process.arch] ?? process.arch,
    os: "linux",
    config: {},
    rootfs: { type: "layers", diff_ids: [sha256(tar)] },
    history: [{ created_by: "kiln test fixture" }],
  }));
  const manifest = new TextEncoder().encode(JSON.stringify({
    schemaVersion: 2,
    mediaType: "application/vnd.docker.distribution.manifest.v2+json",
    config: { mediaType: "application/vnd.docker.container.image.v1+json", size: config.length, digest: sha256(config) },
    layers: [{ mediaType: "application/vnd.docker.image.rootfs.diff.tar.gzip", size: layer.length, digest: sha256(layer) }],
  }));
  const blobs = new Map([[sha256(config), config], [sha256(layer), layer]]);
  const requests: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      requests.push(`${req.method} ${path}`);
      const headers = { "docker-distribution-api-version": "registry/2.0" };
      const body = (bytes: Uint8Array<ArrayBuffer>, type: string, digest: string) =>
        new Response(req.method === "HEAD" ? null : bytes, { headers: { ...headers, "content-type": type, "content-length": String(bytes.length), "docker-content-digest": digest } });
      if (path === "/v2/" || path === "/v2") return Response.json({}, { headers });
      const prefix = `/v2/${repository}/`;
      if (!path.startsWith(prefix)) return Response.json({ errors: [{ code: "NAME_UNKNOWN", message: "repository name not known to registry" }] }, { status: 404, headers });
      const [kind, reference] = path.slice(prefix.length).split("/");
      if (kind === "manifests" && (tags.includes(reference!) || reference === sha256(manifest))) return body(manifest, "application/vnd.docker.distribution.manifest.v2+json", sha256(manifest));
      const blob = kind === "blobs" ? blobs.get(reference!) : undefined;
      if (blob) return body(blob, "application/octet-stream", reference!);
      return Response.json({ errors: [{ code: "MANIFEST_UNKNOWN", message: "manifest unknown" }] }, { status: 404, headers });
    },
  });
  return { host: `127.0.0.1:${server.port}`, requests, stop: () => void server.stop(true) };
}
