// A load generator at a fixed rate, for budgets stated as "N requests a second" (wrk only knows
// "as fast as it answers"). Plain HTTP/1.1 GETs on CONNECTIONS kept-alive sockets (Bun.connect:
// fetch cost a whole core at 10,000 a second, which the process measuring beside it then lacked).
// Every millisecond it sends the requests due by then on idle sockets, so the rate holds whether
// the server answers fast or slowly; a request due while every socket waits is counted as missed,
// not queued. Prints one JSON line: what was sent, answered (2xx), failed, missed, the rate reached.
//   bun bench/lib/paced-load.ts <url> <requests per second> <seconds>
import type { Socket } from "bun";

const [urlArg, rateArg, secondsArg] = process.argv.slice(2);
const rate = Number(rateArg);
const seconds = Number(secondsArg);
if (!urlArg || !(rate > 0) || !(seconds > 0)) throw new Error("usage: paced-load.ts <url> <rate> <seconds>");
const url = new URL(urlArg);

const CONNECTIONS = 64;
const request = Buffer.from(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/html\r\n\r\n`);
let sent = 0;
let answered = 0;
let failed = 0;
let missed = 0;

/** One socket's state: whether a request is out, and the bytes of its answer so far. */
interface Conn {
  busy: boolean;
  buffer: Buffer;
}
const idle: Socket<Conn>[] = [];

/** Takes every whole answer off the front of the buffer (Content-Length bodies, as the panel sends). */
function consume(socket: Socket<Conn>): void {
  const conn = socket.data;
  for (;;) {
    const headEnd = conn.buffer.indexOf("\r\n\r\n");
    if (headEnd < 0) return;
    const head = conn.buffer.subarray(0, headEnd).toString("latin1");
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (conn.buffer.length < headEnd + 4 + length) return;
    if (/^HTTP\/1\.1 2/.test(head)) answered++;
    else failed++;
    conn.buffer = conn.buffer.subarray(headEnd + 4 + length);
    conn.busy = false;
    idle.push(socket);
  }
}

await Promise.all(
  Array.from({ length: CONNECTIONS }, () =>
    Bun.connect<Conn>({
      hostname: url.hostname,
      port: Number(url.port),
      data: { busy: false, buffer: Buffer.alloc(0) },
      socket: {
        open(socket) {
          idle.push(socket);
        },
        data(socket, chunk) {
          socket.data.buffer = socket.data.buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([socket.data.buffer, chunk]);
          consume(socket);
        },
      },
    }),
  ),
);

const start = performance.now();
const end = start + seconds * 1000;
await new Promise<void>((done) => {
  const tick = () => {
    const now = performance.now();
    const due = Math.floor(((Math.min(now, end) - start) / 1000) * rate);
    while (sent + missed < due) {
      const socket = idle.pop();
      if (!socket) {
        missed++;
        continue;
      }
      socket.data.busy = true;
      socket.write(request);
      sent++;
    }
    if (now >= end) done();
    else setTimeout(tick, 1);
  };
  tick();
});
await Bun.sleep(500);
console.log(JSON.stringify({ sent, answered, failed, missed, rate: Math.round(answered / seconds) }));
process.exit(0);
