// Serves a folder over HTTP the way a web server with directory listings does (nginx autoindex,
// `python3 -m http.server`): a folder's URL answers an HTML page linking its entries (folders
// with a trailing "/"), a folder named without its slash is redirected to it, a file answers its
// bytes. Tests put a repository in pufferpanel/templates' layout behind it for the panel to import.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";

export interface FolderServer {
  url: string;
  /** the paths asked for, in order */
  hits: string[];
  stop(): void;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function serveFolder(root: string): FolderServer {
  const base = resolve(root);
  const hits: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const { pathname } = new URL(req.url);
      hits.push(pathname);
      const path = resolve(base, `.${decodeURIComponent(pathname)}`);
      if (path !== base && !path.startsWith(base + sep)) return new Response("no", { status: 403 });
      let stat;
      try {
        stat = statSync(path);
      } catch {
        return new Response("not found", { status: 404 });
      }
      if (!stat.isDirectory()) return new Response(readFileSync(path));
      if (!pathname.endsWith("/")) return Response.redirect(`${pathname}/`, 301);
      const links = readdirSync(path, { withFileTypes: true })
        .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
        .sort()
        .map((name) => `<li><a href="${escapeHtml(encodeURI(name))}">${escapeHtml(name)}</a></li>`);
      return new Response(`<!DOCTYPE html><html><body><h1>Index of ${escapeHtml(pathname)}</h1><ul><li><a href="../">../</a></li>${links.join("")}</ul></body></html>`, {
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, hits, stop: () => void server.stop(true) };
}

/** Every template file of a PufferPanel-layout folder, as PufferPanel lists them: `<folder>/<name>.json`, not data.json. */
export function templateFiles(root: string): Array<{ folder: string; file: string; name: string }> {
  const files: Array<{ folder: string; file: string; name: string }> = [];
  for (const folder of readdirSync(root, { withFileTypes: true })) {
    if (!folder.isDirectory() || folder.name.startsWith(".")) continue;
    for (const file of readdirSync(join(root, folder.name))) {
      if (file.endsWith(".json") && file !== "data.json") files.push({ folder: folder.name, file, name: file.slice(0, -5) });
    }
  }
  return files.sort((a, b) => a.name.localeCompare(b.name));
}
