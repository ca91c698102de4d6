// The files tab as the server renders it, without script (spec sections 2 and 6): the tab shows
// for viewServerFiles or sftpServer; the SFTP card for sftpServer, with the node's SFTP port, the
// browser's host for {ip} and the email#id username; the file manager for viewServerFiles, with
// the asked-for folder already listed and links that browse and download without script.
import { describe, expect, test } from "bun:test";
import { panelPerTest, type PanelWithNode } from "./helpers/panel-node";

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
    expect(html).toContain('data-island="CopyButton"');
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
