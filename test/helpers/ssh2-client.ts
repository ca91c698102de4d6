// ssh2's own SFTP client, for tests that send what OpenSSH's client never would.
import { Client, type SFTPWrapper } from "ssh2";
import { sftpUsername } from "../../core/sftp/username";

/** Logs in on a node's SFTP port with ssh2's client and opens its sftp channel. */
export function ssh2Sftp(port: number, login: { email: string; serverId: string; password: string }): Promise<{ client: Client; sftp: SFTPWrapper }> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    client
      .on("ready", () => client.sftp((error, sftp) => (error ? reject(error) : resolve({ client, sftp }))))
      .on("error", reject)
      .connect({ host: "127.0.0.1", port, username: sftpUsername(login.email, login.serverId), password: login.password, readyTimeout: 10_000 });
  });
}

/** One of ssh2's callback calls as a promise. */
export const call = <T>(fn: (cb: (error: Error | null | undefined, value?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => fn((error, value) => (error ? reject(error) : resolve(value as T))));
