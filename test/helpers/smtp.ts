// A real SMTP server on loopback that keeps what it receives.
import { afterAll, beforeAll, beforeEach } from "bun:test";
import { SMTPServer } from "smtp-server";
import type { Db } from "../../db";
import { setSetting } from "../../server/services/settings";

export interface Received {
  to: string[];
  raw: string;
}

export interface Smtp {
  port: number;
  received: Received[];
  /** Resolves once `count` messages have arrived (the panel sends some after it answered); throws after `timeoutMs`. */
  arrived: (count: number, timeoutMs?: number) => Promise<Received[]>;
  close: () => Promise<void>;
}

/**
 * `answerAfterMs`: the server keeps each message that long before accepting it (a slow provider);
 * `refuse`: it refuses every message after reading it (a provider that is down or rejects the panel).
 */
export async function startSmtp({ answerAfterMs = 0, refuse = false }: { answerAfterMs?: number; refuse?: boolean } = {}): Promise<Smtp> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        setTimeout(() => callback(refuse ? Object.assign(new Error("mailbox unavailable"), { responseCode: 550 }) : null), answerAfterMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return { port, received, arrived: (count, timeoutMs) => arrival(received, count, timeoutMs), close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function arrival(received: Received[], count: number, timeoutMs = 5000): Promise<Received[]> {
  const until = Date.now() + timeoutMs;
  while (received.length < count) {
    if (Date.now() > until) throw new Error(`${received.length} of ${count} messages arrived in ${timeoutMs} ms`);
    await Bun.sleep(10);
  }
  return received;
}

/**
 * A mail server for the calling test file: started before its tests, closed after them, and
 * emptied before each test (its `received` is then that test's mail only).
 */
export function smtpForFile(): { readonly port: number; readonly received: Received[]; arrived: (count: number, timeoutMs?: number) => Promise<Received[]> } {
  let server: Smtp | undefined;
  const started = () => {
    if (!server) throw new Error("the file's mail server is read before its tests start");
    return server;
  };
  beforeAll(async () => {
    server = await startSmtp();
  });
  beforeEach(() => {
    started().received.length = 0;
  });
  afterAll(() => server?.close());
  return {
    get port() {
      return started().port;
    },
    get received() {
      return started().received;
    },
    arrived: (count, timeoutMs) => started().arrived(count, timeoutMs),
  };
}

/** Points the panel's mail at the SMTP server on `port`, and (unless told not to) sets the master URL its links name. */
export async function mailThrough(db: Db, port: number, { masterUrl = true }: { masterUrl?: boolean } = {}): Promise<void> {
  await setSetting(db, "panel.email.provider", "smtp");
  await setSetting(db, "panel.email.host", `127.0.0.1:${port}`);
  await setSetting(db, "panel.email.from", "kiln@example.com");
  if (masterUrl) await setSetting(db, "panel.settings.masterUrl", "https://panel.example.com");
}

/** The token of the address-confirmation link in a mail as received (quoted-printable soft breaks undone). */
export const confirmationTokenIn = (raw: string): string => decodeURIComponent(/confirm-email\?token=(?:3D)?([A-Za-z0-9_%-]+)/.exec(raw.replace(/=\r?\n/g, ""))![1]!);
