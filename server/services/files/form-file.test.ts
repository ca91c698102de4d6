// A plain form's file, cut out of its multipart body as it streams: the bytes exactly (whatever
// chunks they come in, a boundary-like run inside them included), nothing of the headers or the
// closing boundary; a body with no file part is ErrFieldRequired.
import { describe, expect, test } from "bun:test";
import { formFileBytes } from "./form-file";

async function multipart(bytes: Uint8Array<ArrayBuffer>, chunk: number): Promise<{ body: ReadableStream<Uint8Array>; type: string }> {
  const form = new FormData();
  form.append("file", new Blob([bytes]), "pack.mrpack");
  const request = new Request("http://x/", { method: "POST", body: form });
  const whole = new Uint8Array(await request.arrayBuffer());
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < whole.length; at += chunk) controller.enqueue(whole.slice(at, at + chunk));
      controller.close();
    },
  });
  // The boundary as the body's first line names it (the tests' Request may not set the header).
  const first = new TextDecoder().decode(whole.slice(0, 200)).split("\r\n")[0]!;
  return { body, type: `multipart/form-data; boundary=${first.slice(2)}` };
}

describe("a plain form's file", () => {
  test("comes out byte for byte, however the body is cut", async () => {
    const bytes = new Uint8Array(5000).map((_, i) => (i * 7) % 256);
    bytes.set(new TextEncoder().encode("\r\n--not-the-boundary\r\n"), 1000);
    for (const chunk of [1, 7, 64, 4096, 100_000]) {
      const { body, type } = await multipart(bytes, chunk);
      expect(new Uint8Array(await new Response(formFileBytes(body, type)).arrayBuffer())).toEqual(bytes);
    }
    const { body, type } = await multipart(new Uint8Array(0), 3);
    expect((await new Response(formFileBytes(body, type)).arrayBuffer()).byteLength).toBe(0);
  });

  test("a body without a file part, or without a boundary, is refused", async () => {
    const other = new TextEncoder().encode('--b\r\nContent-Disposition: form-data; name="other"\r\n\r\nx\r\n--b--\r\n');
    await expect(new Response(formFileBytes(new Response(other).body, "multipart/form-data; boundary=b")).arrayBuffer()).rejects.toMatchObject({ code: "ErrFieldRequired" });
    expect(() => formFileBytes(new Response("x").body, "text/plain")).toThrow();
  });
});
