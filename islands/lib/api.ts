// How islands call the JSON API: same-origin JSON, errors turned into ApiError and reported with
// a translated toast (and, for unknown errors, a Details button with the technical dump).
import { isErrorBody, type ErrorBody } from "../../core/errors";
import { reportError } from "../shell/report-error";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | undefined,
    readonly request: { method: string; url: string; body?: unknown },
  ) {
    super(body?.error.code ?? `HTTP ${status}`);
  }
}

/** Sends `body` as JSON, as plain text when `asText` (a console command is the body itself), or a file (a Blob) as its bytes. */
export async function api<T>(method: string, url: string, body?: unknown, asText = false): Promise<T> {
  const file = body instanceof Blob;
  const type = file ? "application/octet-stream" : asText ? "text/plain;charset=utf-8" : "application/json";
  const response = await fetch(url, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? { accept: "application/json" } : { "content-type": type, accept: "application/json" },
    body: body === undefined ? undefined : file ? body : asText ? String(body) : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (!response.ok) throw new ApiError(response.status, isErrorBody(parsed) ? parsed : undefined, { method, url, body });
  return parsed as T;
}

/** Calls the API and reports a failure to the user; resolves to undefined when it failed. */
export async function apiOrReport<T>(method: string, url: string, body?: unknown): Promise<T | undefined> {
  try {
    return await api<T>(method, url, body);
  } catch (error) {
    await reportError(error);
    return undefined;
  }
}
