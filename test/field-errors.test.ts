// A failed form shows its error beside the field it is about, without script: the
// input is aria-invalid and aria-describedby the message under it, and the message is not also
// repeated above the form. Users (add, edit), server users, account, nodes and settings.
import { beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, HTML, type TestPanel } from "./helpers/app";
import { createUser } from "../server/services/users";
import { SCOPES } from "../core/scopes";
import { schema } from "../db";

let panel: TestPanel;
let admin: Awaited<ReturnType<typeof loginAs>>;
beforeEach(async () => {
  panel = await testPanel();
  admin = await loginAs(panel.db, [SCOPES.admin]);
});

const post = (path: string, fields: Record<string, string>) =>
  panel.request(path, { method: "POST", token: admin.token, headers: { "content-type": "application/x-www-form-urlencoded", ...HTML }, body: new URLSearchParams(fields).toString() });

/**
 * Checks that the input called `name` in the form posting to `action` carries the error, with
 * `message` under it, and that no error alert repeats it.
 */
function expectAtField(html: string, action: string, name: string, message: string): void {
  const start = html.indexOf(`action="${action}"`);
  expect(start).toBeGreaterThan(-1);
  const form = html.slice(start, html.indexOf("</form>", start));
  const input = new RegExp(`<(input|select|textarea)[^>]*name="${name.replace(/\./g, "\\.")}"[^>]*>`).exec(form)![0];
  expect(input).toContain('aria-invalid="true"');
  // The error is one of the ids that describe the input (a hint may be another).
  const id = /aria-describedby="(?:[^"]* )?([^" ]+-error)(?: [^"]*)?"/.exec(input)![1]!;
  expect(form).toContain(`<span class="field-error" id="${id}" role="alert">${message}`);
  // Said once, at the field: no alert above the form with the same words.
  expect(html.split(message).length - 1).toBe(1);
}

describe("errors at their field", () => {
  test("add user: a bad email, a taken one", async () => {
    const badEmail = await post("/adduser", { email: "not-an-email", username: "someone", password: "password123" });
    expect(badEmail.status).toBe(400);
    expectAtField(await badEmail.text(), "/adduser", "email", "email is not a valid email");
    const taken = await post("/adduser", { email: admin.email, username: "someone", password: "password123" });
    expectAtField(await taken.text(), "/adduser", "email", "A user with this email or username already exists");
  });

  test("edit user: a username taken by someone else", async () => {
    const { id } = await createUser(panel.db, { username: "target", email: "target@example.com", password: "password123" });
    await createUser(panel.db, { username: "other", email: "other@example.com", password: "password123" });
    const res = await post(`/user/${id}`, { username: "other", email: "target@example.com", password: "" });
    expect(res.status).toBe(409);
    expectAtField(await res.text(), `/user/${id}`, "username", "A user with this email or username already exists");
  });

  test("account: new passwords that differ, a short one, a wrong current one", async () => {
    const differ = await post("/account/password", { password: "password123", newPassword: "new-password-1", newPasswordConfirm: "new-password-2" });
    expectAtField(await differ.text(), "/account/password", "newPasswordConfirm", "The passwords are not the same");
    const short = await post("/account/password", { password: "password123", newPassword: "short", newPasswordConfirm: "short" });
    expectAtField(await short.text(), "/account/password", "newPassword", "The password must be at least 8 characters long");
    const wrong = await post("/account/profile", { username: "renamed", email: admin.email, password: "wrong-password" });
    expectAtField(await wrong.text(), "/account/profile", "password", "That is not your current password.");
  });

  test("nodes: an address that is no host, a taken name", async () => {
    const bad = await post("/addnode", { name: "edge", publicHost: "bad host!", publicPort: "8081", privateHost: "10.0.0.2", privatePort: "8081", sftpPort: "5657", internalHost: "" });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expectAtField(html, "/addnode", "publicHost", "Public host must be a valid IP or FQDN");
    await panel.db.insert(schema.nodes).values({ name: "taken", publicHost: "a.example.com", publicPort: 8081, privateHost: "10.0.0.3", privatePort: 8081, sftpPort: 5657, secret: "s", createdAt: new Date() }).run();
    const taken = await post("/addnode", { name: "taken", publicHost: "b.example.com", publicPort: "8081", privateHost: "10.0.0.4", privatePort: "8081", sftpPort: "5657", internalHost: "" });
    expectAtField(await taken.text(), "/addnode", "name", "A node with this name already exists");
  });

  test("settings: a master URL that is not one, named by its label, shown as typed", async () => {
    const res = await post("/settings/general", { "panel.settings.masterUrl": "not a url", "panel.settings.companyName": "Changed" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expectAtField(html, "/settings/general", "panel.settings.masterUrl", "Master URL must be a valid IP or FQDN");
    // What was typed comes back, to be corrected where it stands (nothing was saved).
    expect(html).toContain('value="not a url"');
    expect(html).toContain('value="Changed"');
  });
});
