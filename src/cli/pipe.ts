/**
 * Output to a pipe whose reader has gone (`model-gate --help | true`, `… | head -c1`): the
 * reader has what it wanted, so the rest is dropped quietly and the command ends with the
 * exit code it would have had. Without a listener, Node throws the EPIPE as an uncaught
 * error: a stack trace and exit code 1, which reads as "regression".
 */
interface OutputStream {
  write(text: string): unknown;
  on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown;
}

export function pipeWriter(stream: OutputStream): (text: string) => void {
  let open = true;
  stream.on('error', () => {
    // EPIPE, or a write after it to the destroyed stream: nobody reads this output any more.
    open = false;
  });
  return (text) => {
    if (open) stream.write(text);
  };
}
