// A DNS resolver for tests run in a mount namespace of their own whose /etc/resolv.conf names it:
// it answers A questions with the address `addressFor` gives a name (asked once per question, so
// it may change its answer: a name with a TTL of 0 rebinding), and no record otherwise.
export async function startTestResolver(hostname: string, addressFor: (name: string) => string | null) {
  return await Bun.udpSocket({ hostname, port: 53, socket: { data: (socket, data, port, address) => void socket.send(answer(Buffer.from(data), addressFor), port, address) } });
}

function answer(query: Buffer, addressFor: (name: string) => string | null): Buffer {
  let at = 12;
  const labels: string[] = [];
  while (query[at]) {
    labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString());
    at += query[at]! + 1;
  }
  const type = query.readUInt16BE(at + 1);
  const question = query.subarray(12, at + 5);
  const header = (answers: number) => Buffer.concat([query.subarray(0, 2), Buffer.from([0x81, 0x80, 0, 1, 0, answers, 0, 0, 0, 0])]);
  const address = type === 1 ? addressFor(labels.join(".").toLowerCase()) : null;
  if (!address) return Buffer.concat([header(0), question]);
  const record = Buffer.concat([Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 0, 0, 4]), Buffer.from(address.split(".").map(Number))]);
  return Buffer.concat([header(1), question, record]);
}
