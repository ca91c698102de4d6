// A real SMTP server on loopback that keeps what it receives.
import { afterAll, beforeAll, beforeEach } from "bun:test";
import { SMTPServer } from "smtp-server";
import type { Db } from "../../db";
import { setSetting } from "../../server/services/settings";

export interface Received {
  to: string[];
  raw: string;
}

export async function startSmtp(): Promise<{ port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * A mail server for the calling test file: started before its tests, closed after them, and
 * emptied before each test (its `received` is then that test's mail only).
 */
export function smtpForFile(): { readonly port: number; readonly received: Received[] } {
  let server: Awaited<ReturnType<typeof startSmtp>> | undefined;
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
