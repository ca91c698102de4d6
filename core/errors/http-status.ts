// How the technical dump names HTTP statuses; the text itself is translated.
const STATUS_KEYS: Record<number, string> = {
  401: "errors.http.401",
  403: "errors.http.403",
  404: "errors.http.404",
  500: "errors.http.500",
  502: "errors.http.502",
};

export function httpStatusKey(status: number): string | undefined {
  return STATUS_KEYS[status];
}
