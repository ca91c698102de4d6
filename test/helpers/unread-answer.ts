// A client that asks for a download and reads nothing past its answer's head: its socket's
// buffers fill and the writer waits on a reader that never comes, which is what holds a
// download's place (the panel's, a restic reader on the node) for as long as the client likes.
import net from "node:net";

/**
 * GET `path` on 127.0.0.1:`port` over a socket of its own with `headers`; the answer's status once
 * its head came, and the socket, paused (destroy it to let the place go).
 */
export async function unreadAnswer(port: number, path: string, headers: Record<string, string>): Promise<{ socket: net.Socket; status: number }> {
  const socket = net.createConnection({ host: "127.0.0.1", port });
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const lines = Object.entries({ host: `127.0.0.1:${port}`, ...headers }).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  socket.write(`GET ${path} HTTP/1.1\r\n${lines}\r\n`);
  const head = await new Promise<string>((resolve, reject) => {
    let text = "";
    const take = (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (!text.includes("\r\n\r\n")) return;
      socket.off("data", take);
      socket.pause();
      resolve(text);
    };
    socket.on("data", take).once("error", reject);
  });
  return { status: Number(head.split(" ")[1]), socket };
}
