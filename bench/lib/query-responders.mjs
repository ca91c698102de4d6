// Local game servers for bench/query-cost (run by node, a process of its own so their CPU is not
// counted as the node's): `count` TCP ports answering Minecraft's Server List Ping with a fixed
// status, and `count` UDP ports answering Quake 3's getstatus. Prints "ready" once all listen.
// Usage: node query-responders.mjs <count> <first TCP port> <first UDP port>
import { createServer } from "node:net";
import { createSocket } from "node:dgram";

const [count, tcpBase, udpBase] = process.argv.slice(2).map(Number);
const varint = (v) => { const out = []; do { let b = v & 0x7f; v >>>= 7; if (v) b |= 0x80; out.push(b); } while (v); return out; };
const json = Buffer.from(JSON.stringify({ version: { name: "1.20.1", protocol: 763 }, players: { online: 3, max: 20, sample: [{ name: "Alice_1", id: "5516357f-fd41-33f9-91d2-4e78b5c41054" }] }, description: { text: "bench" } }));
const body = Buffer.from([0, ...varint(json.length), ...json]);
const status = Buffer.concat([Buffer.from(varint(body.length)), body]);
const q3 = Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff]), Buffer.from('statusResponse\n\\sv_hostname\\bench\\sv_maxclients\\12\\version\\ioq3\n5 20 "Sarge"\n')]);
let listening = 0;
const done = () => { if (++listening === count * 2) console.log("ready"); };
for (let i = 0; i < count; i++) {
  createServer((socket) => {
    socket.on("error", () => undefined);
    socket.once("data", () => socket.end(status));
  }).listen(tcpBase + i, "127.0.0.1", done);
  const udp = createSocket("udp4");
  udp.on("message", (_m, from) => udp.send(q3, from.port, from.address));
  udp.bind(udpBase + i, "127.0.0.1", done);
}
