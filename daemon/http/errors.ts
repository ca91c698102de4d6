// The daemon's one place where thrown errors become { error: { code, msg, metadata } } answers.
// A failed system call (ENOENT, ENAMETOOLONG, …) is a catalogue error, never its own message,
// which names the host's paths. Unknown errors are logged and answered without internals; as a
// last guard, no absolute host path in a message or its metadata leaves the node.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { KilnError, type ErrorMetadata } from "../../core/errors";
// Answers say the English catalogue sentence in `msg` (installed into KilnError by this import).
import "../../locales/english";
import { message, verbatim, type DaemonMessage, type MessageValue } from "../../core/live/daemon-message";
import { SaidError } from "../said-error";
import { errorMessageKey } from "../../core/errors/message-key";

/** Longest name one path component may have (NAME_MAX on Linux). */
const NAME_MAX = 255;

/**
 * The catalogue error for a failed file system call, or null for anything else. `path` is the
 * path as the caller gave it (relative to the server's folder); the error's own path, the host's,
 * is never used.
 */
export function errnoToKilnError(error: unknown, path?: string): KilnError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return null;
  const at: ErrorMetadata = path === undefined ? {} : { path };
  switch (code) {
    case "ENOENT":
    case "ENOTDIR":
      return new KilnError("ErrNotFound", at, "no such file or folder");
    case "ENAMETOOLONG":
      return new KilnError("ErrFieldTooLarge", { field: "path", max: NAME_MAX }, "a name in the path is too long");
    case "EEXIST":
    case "ENOTEMPTY":
      return new KilnError("ErrFileExists", { path: path ?? "" }, "something with that name exists");
    case "EISDIR":
      return new KilnError("ErrFileExists", { path: path ?? "" }, "that is a folder");
    case "EACCES":
    case "EPERM":
    case "EROFS":
      return new KilnError("ErrNoPermission", at, "the node may not change that file");
    case "EXDEV":
    case "ELOOP":
      return new KilnError("ErrPathOutside", { path: path ?? "" }, "the path leads out of the server's folder");
    case "ENOSPC":
    case "EDQUOT":
      return new KilnError("ErrServiceNotAvailable", { reason: "disk-full" }, "the node's disk is full");
    default:
      return null;
  }
}

/** An absolute path written into a message (not the path part of a URL): after a space, a quote, a bracket or at the start. */
const HOST_PATH = /(?<![\w:/.~-])\/[^\s'"`()\[\],;]+/g;

/** Text for a person: absolute paths shortened to their last name, so the node's folders stay unnamed. */
export function withoutHostPaths(text: string): string {
  return text.replace(HOST_PATH, (path) => path.replace(/\/+$/, "").split("/").pop() || "…");
}

/**
 * Why something failed, for a console line or an error's metadata: a catalogue error's text, a
 * failed system call's plain description, and never a host path.
 */
export function publicReason(error: unknown): string {
  const known = error instanceof KilnError ? error : errnoToKilnError(error);
  return withoutHostPaths(known ? known.message : error instanceof Error ? error.message : String(error));
}

/** The same as a console message: the catalogue error's key with its metadata, or another error's text. */
export function reasonMessage(error: unknown): DaemonMessage {
  const known = error instanceof KilnError ? error : errnoToKilnError(error);
  if (error instanceof SaidError) return error.said;
  // Without the value its sentence names ("Something named {name} already exists" with no name),
  // the error's own English reads better than a sentence with a hole.
  if (!known || Object.values(known.metadata ?? {}).some((value) => value === "")) return verbatim(publicReason(error));
  const values: Record<string, MessageValue> = {};
  for (const [name, value] of Object.entries(known.metadata ?? {})) {
    if (typeof value === "string") values[name] = withoutHostPaths(value);
    else if (typeof value === "number" || (Array.isArray(value) && value.every((v) => typeof v === "string"))) values[name] = value as MessageValue;
  }
  return message(errorMessageKey(known.code, known.metadata), values);
}

export function toKilnError(error: unknown): KilnError {
  if (error instanceof KilnError) return error;
  if (error instanceof HTTPException) {
    if (error.status === 413) return new KilnError("ErrMessageTooLarge", { max: 0 });
    if (error.status === 400) return new KilnError("ErrInvalidJson");
  }
  // A percent-escape that does not decode (%zz) names nothing here.
  if (error instanceof URIError) return new KilnError("ErrNotFound");
  return errnoToKilnError(error) ?? new KilnError("ErrUnknownError", undefined, "internal error");
}

/** The answer's body with every message and metadata text cleared of host paths. */
function scrubbed(error: KilnError): ReturnType<KilnError["toBody"]> {
  const body = error.toBody();
  body.error.msg = withoutHostPaths(body.error.msg);
  if (body.error.metadata) {
    const metadata: ErrorMetadata = {};
    for (const [key, value] of Object.entries(body.error.metadata)) metadata[key] = typeof value === "string" ? withoutHostPaths(value) : value;
    body.error.metadata = metadata;
  }
  return body;
}

export function daemonErrorResponse(c: Context, error: unknown, log: (e: unknown) => void): Response {
  const kiln = toKilnError(error);
  if (kiln.code === "ErrUnknownError") log(error);
  return c.json(scrubbed(kiln), kiln.status as 500);
}
