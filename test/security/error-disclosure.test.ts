// What an error tells its caller, on a served panel (Bun.serve, as `kiln panel` serves it). Bun
// answers an error that leaves the app with its development page unless the process started with
// NODE_ENV=production in its environment: the error, its stack and the source around each frame,
// with the installation's paths. server/main.ts sets NODE_ENV only once the process runs, too late
// for Bun.serve (the executable sets nothing at all), so the panel served that page whenever its
// error page could not itself be drawn: one unauthenticated request asking for a page with a
// Host no URL holds ("[") made it, the error page's own URL reading failing. Now the panel and
// the node serve with Bun's development answers off, whatever the environment says, and an error
// page that cannot be drawn answers the catalogue's error as an API gets it.
// Checked beside it and sound before: a thrown error in a route, a page whose component throws,
// bodies that cannot be read: the catalogue's codes, nothing of the error.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect } from "node:net";
import { createElement } from "react";
import { testPanel, type TestPanel } from "../helpers/app";
import { servePanel } from "../../server/serve";
import { render } from "../../server/render";

let panel: TestPanel;
let server: ReturnType<typeof servePanel>;
/** What no answer may carry: this checkout's paths, a stack frame, Bun's development page. */
const LEAKS = [process.cwd(), "/work/", "node_modules", ".tsx", "    at ", "DevErrorPage", "SECRET-DETAIL"];

beforeAll(async () => {
  panel = await testPanel();
  // A route that fails as a bug would, and a page whose component fails while it is drawn.
  panel.app.get("/api/zz-broken", () => {
    throw new Error(`SECRET-DETAIL at ${process.cwd()}/server/x.ts`);
  });
  panel.app.get("/zz-broken-page", (c) =>
    render(c, panel.deps, createElement(() => {
      throw new Error(`SECRET-DETAIL at ${process.cwd()}/views/x.tsx`);
    })),
  );
  server = servePanel(panel.app, { port: 0, hostname: "127.0.0.1" });
});
afterAll(() => server?.stop(true));

function raw(lines: string[], body = ""): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port!, "127.0.0.1", () => socket.write([...lines, `Content-Length: ${Buffer.byteLength(body)}`, "Connection: close", "", body].join("\r\n")));
    let out = "";
    socket.on("data", (chunk) => (out += chunk));
    socket.on("end", () => resolve({ status: Number(out.split(" ")[1]), text: out }));
    socket.on("error", reject);
  });
}

function expectNothingTold(answer: { text: string }) {
  for (const leak of LEAKS) expect(answer.text.includes(leak), `${leak} in ${answer.text.slice(0, 400)}`).toBe(false);
}

test("a page asked for with a Host that is no host is the catalogue's refusal, not Bun's development page", async () => {
  // Whatever still leaves the app (a thrown value that is no Error passes Hono's onError by) gets
  // Bun's bare 500, not its development page: bun test runs with NODE_ENV=test, as npm start did.
  expect(server.development).toBe(false);
  for (const host of ["[", "[::1", "a%b"]) {
    const answer = await raw(["GET /auth/login HTTP/1.1", `Host: ${host}`, "Accept: text/html"]);
    expect(answer.status).toBe(400);
    expect(answer.text).toContain("ErrFieldIsInvalidHost");
    expectNothingTold(answer);
  }
});

test("an error thrown in a route, a page that fails to draw and bodies that cannot be read tell nothing of the error", async () => {
  const cases: [string[], string, number][] = [
    [["GET /api/zz-broken HTTP/1.1", "Host: 127.0.0.1"], "", 500],
    [["GET /zz-broken-page HTTP/1.1", "Host: 127.0.0.1", "Accept: text/html"], "", 500],
    [["POST /auth/login HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"], '{"email": ', 400],
    [["POST /auth/login HTTP/1.1", "Host: 127.0.0.1", "Content-Type: multipart/form-data"], "--x\r\n", 400],
    [["POST /auth/login HTTP/1.1", "Host: 127.0.0.1", "Content-Type: multipart/form-data; boundary=x"], "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb", 400],
  ];
  for (const [lines, body, status] of cases) {
    const answer = await raw(lines, body);
    expect(answer.status, answer.text.slice(0, 300)).toBe(status);
    expectNothingTold(answer);
  }
});
