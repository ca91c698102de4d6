// The files tab as the server renders it, without script: the tab shows
// for viewServerFiles or sftpServer; the SFTP card for sftpServer, with the node's SFTP port, the
// browser's host for {ip} and the email#id username; the file manager for viewServerFiles, with
// the asked-for folder already listed and links that browse and download without script; and
// every file manager control as a plain form that works without script, the second
// step of an action (are you sure, where to, new name, mode) as a form of its own, a search by
// name, and a node that does not answer said where the listing would be, with a retry.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HTML } from "./helpers/app";
import { formInit, panelPerTest, setNodePort, type PanelWithNode } from "./helpers/panel-node";
import { freePort } from "./helpers/process";

let ctx: PanelWithNode;
panelPerTest((fresh) => (ctx = fresh));

const page = (path: string, token: string, headers?: Record<string, string>) => ctx.page(path, token, headers);

const userWith = (id: string, flags: Record<string, boolean>) => ctx.userWith(id, flags);

describe("files tab without script", () => {
  test("a user with only sftpServer sees the SFTP card and no file manager", async () => {
    const id = await ctx.createServer("Sftp Only");
    const user = await userWith(id, { sftpServer: true });
    const server = await page(`/server/${id}`, user.token, { "x-forwarded-host": "games.example.net:8080" });
    expect(server.html).toContain('data-hotkey="t f"');
    const { status, html } = await page(`/server/${id}?tab=files`, user.token, { "x-forwarded-host": "games.example.net:8080" });
    expect(status).toBe(200);
    expect(html).toContain('data-testid="sftp-card"');
    expect(html).not.toContain('data-island="FileManager"');
    // The test node's row says {ip} and SFTP port 5657: the browser's host stands in for {ip}.
    expect(html).toContain(`<code data-testid="sftp-address">games.example.net:5657</code>`);
    expect(html).toContain(`<code data-testid="sftp-username">${user.email}#${id}</code>`);
    expect(html).toContain(`href="sftp://${encodeURIComponent(`${user.email}#${id}`)}@games.example.net:5657"`);
    expect(html).toContain("Use your Kiln account password");
    expect(html).toMatch(/<button[^>]*data-copy="[^"]+"[^>]*hidden/);
    // SFTP logins need viewServerFiles too: the card says so rather than let the user guess.
    expect(html).toContain('data-testid="sftp-access" data-mode="none"');
    expect(html).toContain("SFTP logins are refused: they also need the “View and download files” permission.");
  });

  test("the SFTP card says read-only without putServerFiles, in the user's language", async () => {
    const id = await ctx.createServer("Sftp Reader");
    const reader = await userWith(id, { sftpServer: true, viewServerFiles: true });
    const { html } = await page(`/server/${id}?tab=files`, reader.token);
    expect(html).toContain('data-testid="sftp-access" data-mode="read-only"><strong>Read-only.</strong> <span>You can list and download files; uploading, renaming, deleting and changing them needs the “Edit and upload files” permission.</span>');
    const german = await page(`/server/${id}?tab=files`, reader.token, { "accept-language": "de" });
    expect(german.html).toContain("<strong>Nur lesen.</strong>");
    const writer = await userWith(id, { sftpServer: true, viewServerFiles: true, putServerFiles: true });
    expect((await page(`/server/${id}?tab=files`, writer.token)).html).toContain('data-mode="read-write"><strong>Read and write.</strong>');
  });

  test("a user with neither flag gets no files tab; asking for it shows another tab", async () => {
    const id = await ctx.createServer("No Files");
    const user = await userWith(id, { viewServerConsole: true });
    const { html } = await page(`/server/${id}?tab=files`, user.token);
    expect(html).not.toContain('data-hotkey="t f"');
    expect(html).not.toContain('data-testid="sftp-card"');
    expect(html).not.toContain('data-island="FileManager"');
    expect(html).toContain('data-island="ServerConsole"');
  });

  test("viewServerFiles without sftpServer: the file manager, read-only, and no SFTP card", async () => {
    const id = await ctx.createServer("Viewer");
    const user = await userWith(id, { viewServerFiles: true });
    const { html } = await page(`/server/${id}?tab=files`, user.token);
    expect(html).toContain('data-island="FileManager"');
    expect(html).not.toContain('data-testid="sftp-card"');
    expect(html).not.toContain('data-action="delete"');
    expect(html).not.toContain('data-hotkey="u"');
  });

  test("the admin sees both, with the asked-for folder listed by the server", async () => {
    const id = await ctx.createServer("Both");
    // The echo template's install writes motd.txt; give it a folder with a file to browse into.
    const put = async (path: string, init: RequestInit) => (await ctx.panel.request(`/proxy/daemon/server/${id}/file/${path}`, { token: ctx.admin.token, ...init })).status;
    expect(await put("my%20maps?folder=true", { method: "PUT" })).toBeLessThan(300);
    const form = new FormData();
    form.append("file", new Blob(["spawn"]), "a#1.txt");
    expect(await put("my%20maps/a%231.txt", { method: "PUT", body: form })).toBeLessThan(300);

    const root = await page(`/server/${id}?tab=files`, ctx.admin.token);
    expect(root.html).toContain('data-testid="sftp-card"');
    expect(root.html).toContain('data-testid="sftp-access" data-mode="read-write"');
    expect(root.html).toContain('data-island="FileManager"');
    expect(root.html).toContain(`href="/server/${id}?tab=files&amp;path=my%20maps"`);
    for (const hotkey of ["t f", "r", "n f", "n d", "u"]) expect(root.html).toContain(`data-hotkey="${hotkey}"`);

    const inside = await page(`/server/${id}?tab=files&path=${encodeURIComponent("my maps")}`, ctx.admin.token);
    expect(inside.html).toContain('data-name=".."');
    expect(inside.html).toContain(`href="/proxy/daemon/server/${id}/file/my%20maps/a%231.txt"`);
    expect(inside.html).not.toContain('data-name="motd.txt"');
    // That link downloads the file through the proxy.
    const download = await ctx.panel.request(`/proxy/daemon/server/${id}/file/my%20maps/a%231.txt`, { token: ctx.admin.token });
    expect(download.headers.get("content-disposition")).toContain("attachment");
    expect(await download.text()).toBe("spawn");

    // A folder that is not there: the page still renders, and the browser will ask (and say why).
    const missing = await page(`/server/${id}?tab=files&path=nowhere`, ctx.admin.token);
    expect(missing.status).toBe(200);
    expect(missing.html).toContain('data-island="FileManager"');
  });
});

describe("the file manager's plain forms", () => {
  const folderOf = (id: string) => ctx.node.folder(id);
  /** A form post with repeated fields (the ticked boxes), as a browser sends it. */
  const post = (path: string, token: string, fields: Array<[string, string]>) =>
    ctx.panel.request(path, { token, method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...HTML }, body: new URLSearchParams(fields).toString() });
  const act = (id: string, token: string, fields: Array<[string, string]>) => post(`/server/${id}/files/act`, token, fields);
  const flashOf = (response: Response) => decodeURIComponent(/kiln_flash=([^;]*)/.exec(response.headers.get("set-cookie") ?? "")?.[1] ?? "");

  test("new folder, new file (never over a name), and an upload, each a form post ending on the folder", async () => {
    const id = await ctx.createServer("Forms New");
    const folder = await ctx.panel.request(`/server/${id}/files/new`, { token: ctx.admin.token, ...formInit({ folder: "", kind: "folder", name: "maps" }) });
    expect(folder.status).toBe(303);
    expect(folder.headers.get("location")).toBe(`/server/${id}?tab=files`);
    expect(flashOf(folder)).toBe("files.done.created");
    expect(statSync(join(folderOf(id), "maps")).isDirectory()).toBe(true);

    const file = await ctx.panel.request(`/server/${id}/files/new`, { token: ctx.admin.token, ...formInit({ folder: "maps", kind: "file", name: "notes.txt" }) });
    expect(file.headers.get("location")).toBe(`/server/${id}?tab=files&path=maps`);
    expect(readFileSync(join(folderOf(id), "maps/notes.txt"), "utf8")).toBe("");
    writeFileSync(join(folderOf(id), "maps/notes.txt"), "keep me");
    const again = await ctx.panel.request(`/server/${id}/files/new`, { token: ctx.admin.token, ...formInit({ folder: "maps", kind: "file", name: "notes.txt" }) });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Something named maps/notes.txt already exists");
    expect(readFileSync(join(folderOf(id), "maps/notes.txt"), "utf8")).toBe("keep me");

    // A multipart form with the browser's file name in the part; the body streams to the node.
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(300_000).fill(7)]), "world \"one\".dat");
    const upload = await ctx.panel.request(`/server/${id}/files/upload?folder=maps`, { token: ctx.admin.token, method: "POST", headers: HTML, body: form });
    expect(upload.status).toBe(303);
    expect(flashOf(upload)).toBe("files.uploaded");
    expect(statSync(join(folderOf(id), 'maps/world "one".dat')).size).toBe(300_000);
    const none = new FormData();
    none.append("file", new Blob([]), "");
    const empty = await ctx.panel.request(`/server/${id}/files/upload?folder=maps`, { token: ctx.admin.token, method: "POST", headers: HTML, body: none });
    expect(empty.status).toBe(400);
  });

  test("delete asks first (its own form), then deletes the ticked entries; a row's button acts on its row", async () => {
    const id = await ctx.createServer("Forms Delete");
    mkdirSync(join(folderOf(id), "old"));
    writeFileSync(join(folderOf(id), "old/a.txt"), "a");
    writeFileSync(join(folderOf(id), "b.txt"), "b");
    const asked = await act(id, ctx.admin.token, [["folder", ""], ["pick", "old"], ["pick", "b.txt"], ["do", "delete"]]);
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toContain('data-testid="files-pending" data-action="delete"');
    expect(html).toContain('<input type="hidden" name="confirm" value="1"/>');
    expect(html).toContain("<li>old</li><li>b.txt</li>");
    expect(existsSync(join(folderOf(id), "old"))).toBe(true);
    const done = await act(id, ctx.admin.token, [["folder", ""], ["do", "delete"], ["confirm", "1"], ["pick", "old"], ["pick", "b.txt"]]);
    expect(done.status).toBe(303);
    expect(flashOf(done)).toBe("files.done.deleted");
    expect(existsSync(join(folderOf(id), "old")) || existsSync(join(folderOf(id), "b.txt"))).toBe(false);
    // A row's own button: "row" = "<action>:<name>"; nothing ticked is needed.
    writeFileSync(join(folderOf(id), "c.txt"), "c");
    const row = await act(id, ctx.admin.token, [["folder", ""], ["row", "delete:c.txt"]]);
    expect(await row.text()).toContain("<li>c.txt</li>");
    // Nothing ticked: said, nothing done.
    const nothing = await act(id, ctx.admin.token, [["folder", ""], ["do", "delete"]]);
    expect(nothing.status).toBe(400);
  });

  test("rename, move, copy and permissions: the second step asks, then the node does it", async () => {
    const id = await ctx.createServer("Forms Move");
    mkdirSync(join(folderOf(id), "dest"));
    writeFileSync(join(folderOf(id), "run.sh"), "echo\n");
    chmodSync(join(folderOf(id), "run.sh"), 0o640);

    const rename = await act(id, ctx.admin.token, [["folder", ""], ["row", "rename:run.sh"]]);
    expect(await rename.text()).toMatch(/<input type="text"[^>]*name="name"[^>]*value="run.sh"\/>/);
    expect((await act(id, ctx.admin.token, [["folder", ""], ["do", "rename"], ["confirm", "1"], ["pick", "run.sh"], ["name", "start.sh"]])).status).toBe(303);
    expect(existsSync(join(folderOf(id), "start.sh"))).toBe(true);

    const mode = await act(id, ctx.admin.token, [["folder", ""], ["row", "mode:start.sh"]]);
    const modeHtml = await mode.text();
    expect(modeHtml).toContain('value="640"');
    expect(modeHtml).toContain("rw-r-----");
    expect((await act(id, ctx.admin.token, [["folder", ""], ["do", "mode"], ["confirm", "1"], ["pick", "start.sh"], ["mode", "750"]])).status).toBe(303);
    expect(statSync(join(folderOf(id), "start.sh")).mode & 0o777).toBe(0o750);
    const setuid = await act(id, ctx.admin.token, [["folder", ""], ["do", "mode"], ["confirm", "1"], ["pick", "start.sh"], ["mode", "4755"]]);
    expect(setuid.status).toBe(400);
    expect(await setuid.text()).toContain("setuid, setgid and sticky are not allowed");

    const copy = await act(id, ctx.admin.token, [["folder", ""], ["pick", "start.sh"], ["do", "copy"]]);
    expect(await copy.text()).toContain('name="target"');
    expect((await act(id, ctx.admin.token, [["folder", ""], ["do", "copy"], ["confirm", "1"], ["pick", "start.sh"], ["target", "/dest"]])).status).toBe(303);
    expect(readFileSync(join(folderOf(id), "dest/start.sh"), "utf8")).toBe("echo\n");
    expect((await act(id, ctx.admin.token, [["folder", ""], ["do", "move"], ["confirm", "1"], ["pick", "start.sh"], ["target", "dest"]])).status).toBe(409);
    expect((await act(id, ctx.admin.token, [["folder", ""], ["do", "move"], ["confirm", "1"], ["pick", "motd.txt"], ["target", "dest"]])).status).toBe(303);
    expect(existsSync(join(folderOf(id), "dest/motd.txt"))).toBe(true);
  });

  test("download of a selection redirects to a zip made while it downloads; a reader may download but not change", async () => {
    const id = await ctx.createServer("Forms Zip");
    mkdirSync(join(folderOf(id), "pack"));
    writeFileSync(join(folderOf(id), "pack/x.txt"), "x");
    const reader = await ctx.userWith(id, { viewServerFiles: true });
    const download = await act(id, reader.token, [["folder", ""], ["pick", "pack"], ["pick", "motd.txt"], ["do", "download"]]);
    expect(download.status).toBe(303);
    const location = download.headers.get("location")!;
    expect(location).toBe(`/proxy/daemon/server/${id}/zip?path=pack&path=motd.txt`);
    const zip = await ctx.panel.request(location, { token: reader.token });
    expect(zip.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''server.zip");
    expect(Buffer.from(await zip.arrayBuffer()).includes(Buffer.from("pack/x.txt"))).toBe(true);
    // One file is its own download.
    const one = await act(id, reader.token, [["folder", ""], ["row", "download:motd.txt"]]);
    expect(one.headers.get("location")).toBe(`/proxy/daemon/server/${id}/file/motd.txt`);
    for (const action of ["delete", "archive", "rename"]) {
      const refused = await act(id, reader.token, [["folder", ""], ["row", `${action}:motd.txt`], ["confirm", "1"], ["name", "x"]]);
      expect([action, refused.status]).toEqual([action, 403]);
    }
    expect(existsSync(join(folderOf(id), "motd.txt"))).toBe(true);
    const stranger = await ctx.userWith(id, { viewServerConsole: true });
    expect((await act(id, stranger.token, [["folder", ""], ["row", "download:motd.txt"]])).status).toBe(403);
  });

  test("archive and extract by row, archive of the whole folder", async () => {
    const id = await ctx.createServer("Forms Archive");
    mkdirSync(join(folderOf(id), "world"));
    writeFileSync(join(folderOf(id), "world/level.dat"), "level");
    expect(flashOf(await act(id, ctx.admin.token, [["folder", ""], ["row", "archive:world"]]))).toBe("files.done.archived");
    expect(existsSync(join(folderOf(id), "world.zip"))).toBe(true);
    expect(flashOf(await act(id, ctx.admin.token, [["folder", ""], ["do", "archiveFolder"]]))).toBe("files.done.archived");
    expect(existsSync(join(folderOf(id), "server.zip"))).toBe(true);
    mkdirSync(join(folderOf(id), "unpacked"));
    await act(id, ctx.admin.token, [["folder", ""], ["do", "move"], ["confirm", "1"], ["pick", "world.zip"], ["target", "unpacked"]]);
    // Extract asks where first, saying what it would replace there; a destination changed in that
    // form is asked about again; only the previewed one is extracted into.
    writeFileSync(join(folderOf(id), "unpacked/world-level-is-here"), "x");
    mkdirSync(join(folderOf(id), "unpacked/world"));
    writeFileSync(join(folderOf(id), "unpacked/world/level.dat"), "mine");
    const asked = await act(id, ctx.admin.token, [["folder", "unpacked"], ["row", "extract:world.zip"]]);
    expect(asked.status).toBe(200);
    const question = await asked.text();
    expect(question).toContain('data-testid="files-extract-preview"');
    expect(question).toContain("It replaces 1 file already there:");
    expect(question).toContain("/unpacked/world/level.dat");
    expect(question).toContain('name="previewed" value="unpacked"');
    expect(readFileSync(join(folderOf(id), "unpacked/world/level.dat"), "utf8")).toBe("mine");
    const elsewhere = await act(id, ctx.admin.token, [["folder", "unpacked"], ["row", "extract:world.zip"], ["confirm", "1"], ["previewed", "unpacked"], ["target", "/fresh"]]);
    expect(await elsewhere.text()).toContain("The folder /fresh does not exist yet; it is made.");
    expect(existsSync(join(folderOf(id), "fresh"))).toBe(false);
    expect(flashOf(await act(id, ctx.admin.token, [["folder", "unpacked"], ["row", "extract:world.zip"], ["confirm", "1"], ["previewed", "fresh"], ["target", "/fresh"]]))).toBe("files.done.extracted");
    expect(readFileSync(join(folderOf(id), "fresh/world/level.dat"), "utf8")).toBe("level");
    expect(flashOf(await act(id, ctx.admin.token, [["folder", "unpacked"], ["row", "extract:world.zip"], ["confirm", "1"], ["previewed", "unpacked"], ["target", "unpacked"]]))).toBe("files.done.extracted");
    expect(readFileSync(join(folderOf(id), "unpacked/world/level.dat"), "utf8")).toBe("level");
  });

  test("search by name below the folder shown, as a page", async () => {
    const id = await ctx.createServer("Forms Search");
    mkdirSync(join(folderOf(id), "a/b"), { recursive: true });
    writeFileSync(join(folderOf(id), "a/b/Level.dat"), "l");
    const { html } = await page(`/server/${id}?tab=files&path=a&q=level`, ctx.admin.token);
    expect(html).toContain('data-testid="files-search-results"');
    expect(html).toContain('data-path="a/b/Level.dat"');
    expect(html).toContain(`href="/server/${id}?tab=files&amp;path=a%2Fb"`);
    expect(html).toContain('name="q" value="level"');
    const none = await page(`/server/${id}?tab=files&q=zzz`, ctx.admin.token);
    expect(none.html).toContain("Nothing here has that in its name.");
  });

  test("a node that does not answer: the tab says so where the listing would be, with a retry, not 'empty'", async () => {
    const id = await ctx.createServer("Forms Offline");
    await setNodePort(ctx.panel, ctx.nodeId, await freePort());
    const { status, html } = await page(`/server/${id}?tab=files`, ctx.admin.token);
    expect(status).toBe(200);
    expect(html).toContain('data-testid="files-load-error"');
    expect(html).toContain("The service is not available");
    expect(html).toContain(`href="/server/${id}?tab=files" data-action="retry"`);
    expect(html).not.toContain('class="files-empty');
    await setNodePort(ctx.panel, ctx.nodeId, ctx.node.node.port);
  });
});
