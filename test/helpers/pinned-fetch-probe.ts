// Run by test/security/download-addresses.test.ts inside a mount namespace of its own whose
// /etc/resolv.conf names a resolver this script starts (127.77.0.53): it answers `rebind.test`
// first with a public address, then with the loopback (an attacker's name with a TTL of 0), and
// `secure.test` always with the address given. Fetches each URL given through the steps' fetchOk
// with the node's rule and prints one JSON line per URL: what came back, or why not.
//   bun test/helpers/pinned-fetch-probe.ts <secure.test address> <url>...
import { fetchOk, type FetchRule } from "../../daemon/processors/http";

const [secureAddress = "127.0.0.1", ...urls] = process.argv.slice(2);
let rebindAnswers = 0;

/** A DNS answer to `query`: one A record for the two test names, none for anything else. */
function answer(query: Buffer): Buffer {
  let at = 12;
  const labels: string[] = [];
  while (query[at]) {
    labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString());
    at += query[at]! + 1;
  }
  const type = query.readUInt16BE(at + 1);
  const question = query.subarray(12, at + 5);
  const name = labels.join(".").toLowerCase();
  const header = (answers: number) => Buffer.concat([query.subarray(0, 2), Buffer.from([0x81, 0x80, 0, 1, 0, answers, 0, 0, 0, 0])]);
  const address = type !== 1 ? null : name.endsWith("rebind.test") ? (rebindAnswers++ === 0 ? "203.0.113.99" : "127.0.0.1") : name.endsWith("secure.test") ? secureAddress : null;
  if (!address) return Buffer.concat([header(0), question]);
  const record = Buffer.concat([Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 0, 0, 4]), Buffer.from(address.split(".").map(Number))]);
  return Buffer.concat([header(1), question, record]);
}

const dns = await Bun.udpSocket({ hostname: "127.77.0.53", port: 53, socket: { data: (socket, data, port, address) => void socket.send(answer(Buffer.from(data)), port, address) } });
const rule: FetchRule = { trusted: new Set(), own: { ports: [] }, internal: false };
for (const url of urls) {
  try {
    const response = await fetchOk(url, { outbound: rule, signal: AbortSignal.timeout(5000) });
    console.log(JSON.stringify({ url, body: await response.text() }));
  } catch (error) {
    console.log(JSON.stringify({ url, error: (error as Error).message }));
  }
}
dns.close();
