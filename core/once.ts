// A call that does its work the first time only: what gives back a slot or ends a count is handed
// to code that may call it from several paths (a finally and an error handler), and a second call
// must not give back twice.
export function once(work: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    work();
  };
}
