import { afterEach, beforeEach, describe, expect, spyOn, test, type Mock } from "bun:test";
import { createServer, type AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { Db } from "../../../db";
import { openTestDatabase } from "../../../test/helpers/database";
import { setSetting } from "../settings";
import { EMAIL_KEYS, sendEmail, type EmailDeps, type EmailMessage } from ".";
import { failure } from "../../../test/helpers/failure";

const message: EmailMessage = { to: "player@example.com", subject: "Welcome to Kiln", text: "Your server is ready.", html: "<p>Your server is ready.</p>" };
const PASSWORD = "s3cret-pass";

let db: Db;
let consoleError: Mock<typeof console.error>;

beforeEach(async () => {
  db = await openTestDatabase();
  // Failures are logged by design; keep them out of the test output and check them instead.
  consoleError = spyOn(console, "error").mockImplementation(() => {});
});

afterEach(() => {
  consoleError.mockRestore();
});

async function configure(values: Partial<Record<keyof typeof EMAIL_KEYS, string>>): Promise<void> {
  for (const [name, value] of Object.entries(values)) await setSetting(db, EMAIL_KEYS[name as keyof typeof EMAIL_KEYS], value);
}

function deps(base = "http://127.0.0.1:1"): EmailDeps {
  return { db, mailgunBaseUrl: base, mailjetBaseUrl: base };
}

/** The failure was logged exactly once, and the log does not leak the password. */
function expectLoggedOnce(): void {
  expect(consoleError).toHaveBeenCalledTimes(1);
  expect(JSON.stringify(consoleError.mock.calls)).not.toContain(PASSWORD);
}

/** A local HTTP server that records the one request it gets and answers with `status`. */
function providerStub(status = 200) {
  const seen: { method?: string; path?: string; auth?: string | null; type?: string | null; body?: string } = {};
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      seen.method = req.method;
      seen.path = new URL(req.url).pathname;
      seen.auth = req.headers.get("authorization");
      seen.type = req.headers.get("content-type");
      seen.body = await req.text();
      return new Response(status === 200 ? "{}" : "boom", { status });
    },
  });
  return { seen, server, base: `http://127.0.0.1:${server.port}` };
}

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
}

/** A port that was free a moment ago, so connecting to it is refused. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("provider choice", () => {
  test("no provider set, or none, is ErrEmailNotConfigured", async () => {
    expect((await failure(sendEmail(deps(), message))).code).toBe("ErrEmailNotConfigured");
    await configure({ provider: "none" });
    expect((await failure(sendEmail(deps(), message))).code).toBe("ErrEmailNotConfigured");
  });

  test("an unknown provider is ErrServiceInvalidProvider", async () => {
    await configure({ provider: "carrier-pigeon" });
    const error = await failure(sendEmail(deps(), message));
    expect(error.code).toBe("ErrServiceInvalidProvider");
    expect(error.metadata).toEqual({ service: "email", provider: "carrier-pigeon" });
  });
});

describe("smtp", () => {
  test("delivers to the relay, authenticating with the configured credentials", async () => {
    const auths: { username?: string | null; password?: string | null }[] = [];
    let raw = "";
    let envelopeTo: string[] = [];
    // STARTTLS stays on: the relay's self-signed certificate exercises the loopback exception.
    const server = new SMTPServer({
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        auths.push({ username: auth.username, password: auth.password });
        if (auth.username === "mailer" && auth.password === PASSWORD) callback(null, { user: auth.username });
        else callback(new Error("bad credentials"));
      },
      onData(stream, session, callback) {
        envelopeTo = session.envelope.rcptTo.map((r) => r.address);
        stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
        stream.on("end", () => callback());
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.server.address() as AddressInfo;
      await configure({ provider: "smtp", host: `127.0.0.1:${port}`, from: "panel@kiln.test", username: "mailer", password: PASSWORD });
      await sendEmail(deps(), message);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(auths).toEqual([{ username: "mailer", password: PASSWORD }]);
    expect(envelopeTo).toEqual(["player@example.com"]);
    expect(raw).toMatch(/^To: player@example\.com\r?$/m);
    expect(raw).toMatch(/^From: panel@kiln\.test\r?$/m);
    expect(raw).toMatch(/^Subject: Welcome to Kiln\r?$/m);
    expect(raw).toContain("Your server is ready.");
    expect(consoleError).not.toHaveBeenCalled();
  });

  test("a relay that refuses the credentials is ErrServiceNotAvailable", async () => {
    const server = new SMTPServer({
      allowInsecureAuth: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onAuth: (_auth, _session, callback) => callback(new Error("bad credentials")),
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.server.address() as AddressInfo;
      await configure({ provider: "smtp", host: `localhost:${port}`, from: "panel@kiln.test", username: "mailer", password: PASSWORD });
      const error = await failure(sendEmail(deps(), message));
      expect(error.code).toBe("ErrServiceNotAvailable");
      expect(error.metadata).toEqual({ service: "email" });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expectLoggedOnce();
  });

  test("nothing listening is ErrServiceNotAvailable", async () => {
    await configure({ provider: "smtp", host: `127.0.0.1:${await closedPort()}`, from: "panel@kiln.test", username: "mailer", password: PASSWORD });
    const error = await failure(sendEmail(deps(), message));
    expect(error.code).toBe("ErrServiceNotAvailable");
    expect(error.metadata).toEqual({ service: "email" });
    expectLoggedOnce();
  });
});

describe("mailgun", () => {
  test("posts the form to /v3/<domain>/messages with api:<key>", async () => {
    const stub = providerStub();
    try {
      await configure({ provider: "mailgun", from: "panel@mg.kiln.test", domain: "mg.kiln.test", key: "key-123" });
      await sendEmail(deps(stub.base), message);
    } finally {
      stub.server.stop(true);
    }
    expect(stub.seen.method).toBe("POST");
    expect(stub.seen.path).toBe("/v3/mg.kiln.test/messages");
    expect(stub.seen.auth).toBe(basic("api", "key-123"));
    expect(stub.seen.type).toStartWith("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(stub.seen.body))).toEqual({
      from: "panel@mg.kiln.test",
      to: "player@example.com",
      subject: "Welcome to Kiln",
      text: "Your server is ready.",
      html: "<p>Your server is ready.</p>",
    });
  });

  test("html is left out when the message has none", async () => {
    const stub = providerStub();
    try {
      await configure({ provider: "mailgun", from: "panel@mg.kiln.test", domain: "mg.kiln.test", key: "key-123" });
      await sendEmail(deps(stub.base), { to: "a@b.cd", subject: "s", text: "t" });
    } finally {
      stub.server.stop(true);
    }
    expect(new URLSearchParams(stub.seen.body).has("html")).toBe(false);
  });

  test("a 500 from the API is ErrServiceNotAvailable", async () => {
    const stub = providerStub(500);
    try {
      await configure({ provider: "mailgun", from: "panel@mg.kiln.test", domain: "mg.kiln.test", key: "key-123" });
      const error = await failure(sendEmail(deps(stub.base), message));
      expect(error.code).toBe("ErrServiceNotAvailable");
      expect(error.metadata).toEqual({ service: "email" });
    } finally {
      stub.server.stop(true);
    }
    expectLoggedOnce();
  });
});

describe("mailjet", () => {
  test("posts the JSON message to /v3.1/send with <key>:<secret>", async () => {
    const stub = providerStub();
    try {
      await configure({ provider: "mailjet", from: "panel@kiln.test", key: "public-key", password: PASSWORD });
      await sendEmail(deps(stub.base), message);
    } finally {
      stub.server.stop(true);
    }
    expect(stub.seen.method).toBe("POST");
    expect(stub.seen.path).toBe("/v3.1/send");
    expect(stub.seen.auth).toBe(basic("public-key", PASSWORD));
    expect(stub.seen.type).toStartWith("application/json");
    expect(JSON.parse(stub.seen.body ?? "")).toEqual({
      Messages: [
        {
          From: { Email: "panel@kiln.test" },
          To: [{ Email: "player@example.com" }],
          Subject: "Welcome to Kiln",
          TextPart: "Your server is ready.",
          HTMLPart: "<p>Your server is ready.</p>",
        },
      ],
    });
  });

  test("an unreachable API is ErrServiceNotAvailable", async () => {
    await configure({ provider: "mailjet", from: "panel@kiln.test", key: "public-key", password: PASSWORD });
    const error = await failure(sendEmail(deps(`http://127.0.0.1:${await closedPort()}`), message));
    expect(error.code).toBe("ErrServiceNotAvailable");
    expectLoggedOnce();
  });
});

describe("missing settings", () => {
  const cases: [string, Partial<Record<keyof typeof EMAIL_KEYS, string>>, string][] = [
    ["smtp without host", { provider: "smtp", from: "panel@kiln.test" }, EMAIL_KEYS.host],
    ["smtp without from", { provider: "smtp", host: "127.0.0.1" }, EMAIL_KEYS.from],
    ["smtp with a bad port", { provider: "smtp", from: "panel@kiln.test", host: "mail.kiln.test:99999" }, EMAIL_KEYS.host],
    ["mailgun without domain", { provider: "mailgun", from: "panel@kiln.test", key: "k" }, EMAIL_KEYS.domain],
    ["mailgun without key", { provider: "mailgun", from: "panel@kiln.test", domain: "d" }, EMAIL_KEYS.key],
    ["mailgun with an empty key", { provider: "mailgun", from: "panel@kiln.test", domain: "d", key: "" }, EMAIL_KEYS.key],
    ["mailjet without secret", { provider: "mailjet", from: "panel@kiln.test", key: "k" }, EMAIL_KEYS.password],
    ["mailjet without from", { provider: "mailjet", key: "k", password: "p" }, EMAIL_KEYS.from],
  ];
  test.each(cases)("%s is ErrSettingNotConfigured", async (_name, values, key) => {
    await configure(values);
    const error = await failure(sendEmail(deps(), message));
    expect(error.code).toBe("ErrSettingNotConfigured");
    expect(error.metadata).toEqual({ name: key });
    expect(consoleError).not.toHaveBeenCalled();
  });
});
