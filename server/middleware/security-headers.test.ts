// An answer made whole by securedAnswer goes out byte for byte as the same body answered by
// c.body and given its headers by setSecurityHeaders afterwards (status line, headers in their
// order, body), and setSecurityHeaders leaves it as it is.
import { afterAll, expect, test } from "bun:test";
import { connect } from "node:net";
import { Hono } from "hono";
import { securedAnswer, setSecurityHeaders } from "./security-headers";

const BODY = JSON.stringify({ servers: [{ id: "a1b2c3d4", name: "Ünïcödé" }], paging: { page: 1 } });

const app = new Hono();
app.use(async (c, next) => {
  await next();
  setSecurityHeaders(c);
});
app.get("/set-after/:kind", (c) => c.body(c.req.param("kind") === "blob" ? new Blob([BODY]) : BODY, 200, { "Content-Type": "application/json" }));
app.get("/whole/:kind", (c) => securedAnswer(c.req.param("kind") === "blob" ? new Blob([BODY]) : BODY, "application/json"));
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch });
afterAll(() => server.stop(true));

/** The answer's bytes as they come over the socket, its Date line blanked. */
function rawAnswer(path: string, method = "GET"): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(server.port), "127.0.0.1", () => socket.write(`${method} ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString("latin1")));
    socket.on("end", () => resolve(text.replace(/\r\nDate: [^\r]*/, "\r\nDate: -")));
    socket.on("error", reject);
  });
}

test("the same bytes on the wire, from a string and from a Blob, for GET and HEAD", async () => {
  for (const kind of ["text", "blob"]) {
    for (const method of ["GET", "HEAD"]) {
      const whole = await rawAnswer(`/whole/${kind}`, method);
      expect(whole).toBe(await rawAnswer(`/set-after/${kind}`, method));
      expect(whole).toContain("\r\nX-Frame-Options: DENY\r\n");
      expect(whole).toContain("\r\nCache-Control: no-store\r\n");
    }
  }
});

test("setSecurityHeaders leaves an answer made whole as it is", async () => {
  const answer = securedAnswer(BODY, "application/json");
  const before = [...answer.headers];
  const c = { res: answer } as unknown as Parameters<typeof setSecurityHeaders>[0];
  setSecurityHeaders(c);
  expect(c.res).toBe(answer);
  expect([...answer.headers]).toEqual(before);
  expect(answer.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
});
