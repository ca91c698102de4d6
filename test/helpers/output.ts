// A child process's output as it arrives: its stdout and stderr read into one text, so a test can
// wait for a line on either. Both streams are read until they end, whatever the caller does.
export function collectOutput(proc: { stdout: ReadableStream<Uint8Array>; stderr: ReadableStream<Uint8Array> }): () => string {
  let text = "";
  const decoder = new TextDecoder();
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) text += decoder.decode(chunk);
  };
  void pump(proc.stdout);
  void pump(proc.stderr);
  return () => text;
}
