// Which ciphers a connection is offered. ssh2 runs AES-GCM as one native call per packet; AES-CTR
// needs a second pass, an HMAC, over every packet, which was the largest cost left in a transfer
// (bench/sftp-throughput.ts: about 0.2 s of CPU per 200 MB). The client's order decides (RFC 4253,
// 7.1), and OpenSSH lists CTR before GCM, so it takes CTR whenever CTR is offered. OpenSSH has had
// GCM since 6.2 (2013): it is offered GCM alone. Every other client keeps ssh2's full list (GCM
// first, then CTR), as some still lack GCM (Paramiko, PuTTY before 0.76).
//
// ssh2 has no per-connection setting for this. Its 'connection' event comes after the client's
// version line and before ssh2 sends its own KEXINIT, so the offer (a private field) can be
// replaced then; where this ssh2 version has no such field, the connection keeps the full list.
import type { Connection } from "ssh2";

type AlgorithmList = { array: string[] };
type Direction = { cipher: AlgorithmList; mac: AlgorithmList; compress: AlgorithmList; lang: AlgorithmList };
interface Offer {
  lists: { kex: AlgorithmList; serverHostKey: AlgorithmList; cs: Direction; sc: Direction };
}
type KexInitClass = new (algorithms: unknown) => Offer;

const GCM_SINCE = [6, 2];

/** Whether the client's software (from its version line) is an OpenSSH that has AES-GCM. */
export function hasGcm(software: string): boolean {
  const version = /^OpenSSH_(?:for_Windows_)?(\d+)\.(\d+)/.exec(software);
  if (!version) return false;
  const [major, minor] = [Number(version[1]), Number(version[2])];
  return major > GCM_SINCE[0]! || (major === GCM_SINCE[0] && minor >= GCM_SINCE[1]!);
}

/** Offers an OpenSSH client with GCM nothing but GCM; call from ssh2's 'connection' event. */
export function preferGcm(connection: Connection, software: string): void {
  if (!hasGcm(software)) return;
  const protocol = (connection as unknown as { _protocol?: { _offer?: Offer } })._protocol;
  const offer = protocol?._offer;
  if (!protocol || !offer?.lists?.cs?.cipher) return;
  const gcm = offer.lists.cs.cipher.array.filter((name) => name.includes("-gcm"));
  if (gcm.length === 0) return;
  // Loaded here, not at the top: ssh2 is loaded only once a client connects (see server.ts).
  const { KexInit } = require("ssh2/lib/protocol/kex.js") as { KexInit: KexInitClass };
  const { kex, serverHostKey, cs } = offer.lists;
  const direction = { cipher: gcm, mac: cs.mac.array, compress: cs.compress.array, lang: cs.lang.array };
  protocol._offer = new KexInit({ kex: kex.array, serverHostKey: serverHostKey.array, cs: direction, sc: direction });
}
