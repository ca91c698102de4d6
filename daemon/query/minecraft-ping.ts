// Minecraft Java's Server List Ping (the status a client's server list shows, every version
// since 1.7), falling back to the legacy ping (0xFE 0x01, older servers). Ours rather than
// GameDig's: its answer is read with a byte cap (./limits), and the names sample comes with UUIDs.
import { connect, type Socket } from "node:net";
import { QUERY_ANSWER_CAP, QueryFailure, clip, clipName, countOf, MAX_PLAYER_NAMES } from "./limits";
import type { PlayersAnswer } from "../../core/players/players-state";

type Figures = Omit<PlayersAnswer, "latencyMs" | "queriedAt">;

function varint(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

function packet(id: number, body: number[]): Buffer {
  const content = [...varint(id), ...body];
  return Buffer.from([...varint(content.length), ...content]);
}

/** A VarInt at `offset`: [value, bytes read], or null when the buffer ends first. */
function readVarint(buffer: Buffer, offset: number): [number, number] | null {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    if (offset + i >= buffer.length) return null;
    const byte = buffer[offset + i]!;
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) return [value, i + 1];
  }
  throw new QueryFailure("badAnswer");
}

/** Sends `request`, gathers the answer until `complete` says it is whole; everything bounded by the cap and the caller's signal. */
function exchange(host: string, port: number, request: Buffer, complete: (answer: Buffer) => boolean, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const socket: Socket = connect({ host, port });
    const finish = (error: Error | null, answer?: Buffer) => {
      if (done) return;
      done = true;
      signal.removeEventListener("abort", aborted);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer!);
    };
    const aborted = () => finish(new QueryFailure("noAnswer"));
    signal.addEventListener("abort", aborted);
    if (signal.aborted) return aborted();
    socket.on("connect", () => socket.write(request));
    socket.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > QUERY_ANSWER_CAP) return finish(new QueryFailure("tooLarge"));
      chunks.push(chunk);
      const answer = Buffer.concat(chunks);
      try {
        if (complete(answer)) finish(null, answer);
      } catch (error) {
        finish(error as Error);
      }
    });
    socket.on("error", () => finish(new QueryFailure("noAnswer")));
    socket.on("close", () => finish(new QueryFailure(size === 0 ? "noAnswer" : "badAnswer")));
  });
}

/** The status packet's JSON text once all of it arrived; throws tooLarge for a declared length past the cap. */
function statusText(answer: Buffer): string | null {
  const length = readVarint(answer, 0);
  if (!length) return null;
  if (length[0] > QUERY_ANSWER_CAP) throw new QueryFailure("tooLarge");
  const start = length[1];
  if (answer.length < start + length[0]) return null;
  const id = readVarint(answer, start);
  if (!id || id[0] !== 0) throw new QueryFailure("badAnswer");
  const text = readVarint(answer, start + id[1]);
  if (!text) throw new QueryFailure("badAnswer");
  const from = start + id[1] + text[1];
  return answer.subarray(from, from + text[0]).toString("utf8");
}

/** A chat component (a text, or {text, extra}) as plain text. */
function chatText(value: unknown, depth = 0): string {
  if (typeof value === "string") return value;
  if (!value || typeof value !== "object" || depth > 8) return "";
  const component = value as { text?: unknown; extra?: unknown; translate?: unknown };
  const own = typeof component.text === "string" ? component.text : typeof component.translate === "string" ? component.translate : "";
  const extra = Array.isArray(component.extra) ? component.extra.map((part) => chatText(part, depth + 1)).join("") : "";
  return own + extra;
}

function fromStatus(json: string): Figures {
  let status: { version?: { name?: unknown }; players?: { online?: unknown; max?: unknown; sample?: unknown }; description?: unknown };
  try {
    status = JSON.parse(json);
  } catch {
    throw new QueryFailure("badAnswer");
  }
  const online = countOf(status?.players?.online);
  const max = countOf(status?.players?.max);
  const sample = Array.isArray(status.players?.sample) ? status.players.sample : [];
  const players = sample
    .slice(0, MAX_PLAYER_NAMES)
    .map((p: { name?: unknown; id?: unknown }) => ({ name: clipName(p?.name), id: clip(p?.id) }))
    .filter((p): p is { name: string; id: string | undefined } => !!p.name)
    .map((p) => (p.id ? { name: p.name, id: p.id } : { name: p.name }));
  return { online, max, players, version: clip(status.version?.name), motd: clip(chatText(status.description)) };
}

export async function modernPing(host: string, port: number, signal: AbortSignal): Promise<Figures> {
  const hostBytes = [...Buffer.from(host, "utf8")];
  // Protocol version -1: "any", what clients send when they only ask for the status.
  const handshake = packet(0, [...varint(-1), ...varint(hostBytes.length), ...hostBytes, (port >> 8) & 0xff, port & 0xff, 1]);
  const answer = await exchange(host, port, Buffer.concat([handshake, packet(0, [])]), (a) => statusText(a) !== null, signal);
  return fromStatus(statusText(answer)!);
}

/** Beta 1.8 to 1.6's ping: 0xFF, then UTF-16BE "§1\0protocol\0version\0motd\0online\0max". */
export async function legacyPing(host: string, port: number, signal: AbortSignal): Promise<Figures> {
  const whole = (a: Buffer) => {
    if (a[0] !== 0xff) throw new QueryFailure("badAnswer");
    return a.length >= 3 && a.length >= 3 + a.readUInt16BE(1) * 2;
  };
  const answer = await exchange(host, port, Buffer.from([0xfe, 0x01]), whole, signal);
  const chars = answer.readUInt16BE(1);
  const text = answer.subarray(3, 3 + chars * 2).swap16().toString("utf16le");
  const parts = text.startsWith("\u00a71\u0000") ? text.split("\u0000").slice(1) : ["", "", ...text.split("\u00a7")];
  return { online: countOf(parts[3]), max: countOf(parts[4]), players: [], version: clip(parts[1]), motd: clip(parts[2]) };
}

/** The modern ping; the legacy one when the server closed or answered something else (not when it did not answer or answered too much). */
export async function minecraftPing(host: string, port: number, signal: AbortSignal): Promise<Figures> {
  try {
    return await modernPing(host, port, signal);
  } catch (error) {
    if (!(error instanceof QueryFailure) || error.reason !== "badAnswer" || signal.aborted) throw error;
    return legacyPing(host, port, signal);
  }
}
