// Run by test/security/download-addresses.test.ts inside a mount namespace of its own whose
// /etc/resolv.conf names a resolver this script starts (127.77.0.53): it answers `rebind.test`
// first with a public address, then with the loopback (an attacker's name with a TTL of 0), and
// `secure.test` always with the address given. Fetches each URL given through the steps' fetchOk
// with the node's rule and prints one JSON line per URL: what came back, or why not.
//   bun test/helpers/pinned-fetch-probe.ts <secure.test address> <url>...
import { fetchOk, type FetchRule } from "../../daemon/processors/http";
import { startTestResolver } from "./test-resolver";

const [secureAddress = "127.0.0.1", ...urls] = process.argv.slice(2);
let rebindAnswers = 0;

const dns = await startTestResolver("127.77.0.53", (name) => (name.endsWith("rebind.test") ? (rebindAnswers++ === 0 ? "203.0.113.99" : "127.0.0.1") : name.endsWith("secure.test") ? secureAddress : null));
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
