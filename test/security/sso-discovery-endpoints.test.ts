// A provider's discovery document is another machine's answer. One whose authorization endpoint
// was missing, not a URL, or of another scheme (javascript:) passed discovery and threw in the
// library when the panel built the address to send the browser to: every click on the provider's
// button was the panel's own error (a 500), not a refusal. It is now ErrSsoUnavailable (502).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ssoPanel, type SsoPanel } from "../helpers/sso-panel";

let rig: SsoPanel;
let endpoint: unknown;
let issuer = "";
const idp = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: (req: Request): Response => {
    if (new URL(req.url).pathname !== "/.well-known/openid-configuration") return new Response("not found", { status: 404 });
    return Response.json({ issuer, authorization_endpoint: endpoint, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`, response_types_supported: ["code"], subject_types_supported: ["public"], id_token_signing_alg_values_supported: ["RS256"] });
  },
});

issuer = `http://127.0.0.1:${idp.port}`;

beforeAll(async () => {
  rig = await ssoPanel();
});
afterAll(() => {
  rig?.stop();
  idp.stop(true);
});

const shapes: Record<string, unknown> = { missing: undefined, notAUrl: "not a url", javascript: "javascript:alert(document.cookie)", number: 42 };

for (const [name, value] of Object.entries(shapes)) {
  test(`an authorization endpoint ${name}: the button answers ErrSsoUnavailable, not the panel's own error`, async () => {
    endpoint = value;
    const id = `hostile-${name.toLowerCase()}`;
    expect((await rig.addProvider({ id, name: id, type: "oidc", issuer, clientId: "kiln", clientSecret: "secret" })).status).toBe(201);
    const answer = await fetch(`${rig.base}/auth/sso/${id}`, { redirect: "manual" });
    expect(answer.status).toBe(502);
    expect(answer.headers.get("location")).toBeNull();
  });
}
