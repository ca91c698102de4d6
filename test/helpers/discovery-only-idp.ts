// An OpenID provider that answers only its discovery document: enough for a panel to begin a
// sign-in through it (the browser is sent to its authorize address, which the tests never follow).
export function discoveryOnlyIdp(): { issuer: string; stop(): void } {
  const idp = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req: Request): Response => {
      const issuer = `http://127.0.0.1:${idp.port}`;
      if (new URL(req.url).pathname !== "/.well-known/openid-configuration") return new Response("not found", { status: 404 });
      return Response.json({ issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`, response_types_supported: ["code"], subject_types_supported: ["public"], id_token_signing_alg_values_supported: ["RS256"] });
    },
  });
  return { issuer: `http://127.0.0.1:${idp.port}`, stop: () => idp.stop(true) };
}
