/**
 * A producer that writes chunks (a pack writer's sink), read by a consumer as an async iterable
 * (a streamed response body), with backpressure: `write` waits while more than `highWaterMark`
 * bytes are unread, so the producer goes at the consumer's pace and memory stays bounded.
 */

/** Thrown to the producer when the consumer stopped reading (the client went away). */
export class ConsumerGone extends Error {
  constructor() {
    super('the response is no longer read');
    this.name = 'ConsumerGone';
  }
}

/**
 * The chunks `produce` writes, as they come. `produce` starts at the first read; its failure is
 * thrown to the reader after the chunks written before it.
 */
export async function* producedChunks(produce: (write: (chunk: Buffer) => Promise<void>) => Promise<void>, highWaterMark = 1024 * 1024): AsyncGenerator<Buffer> {
  const queue: Buffer[] = [];
  let queuedBytes = 0;
  let wakeReader: (() => void) | undefined;
  let wakeWriter: (() => void) | undefined;
  let finished = false;
  let gone = false;
  let failure: { error: unknown } | undefined;
  const wake = () => {
    wakeReader?.();
    wakeReader = undefined;
  };
  const write = async (chunk: Buffer): Promise<void> => {
    if (gone) throw new ConsumerGone();
    if (chunk.length === 0) return;
    queue.push(chunk);
    queuedBytes += chunk.length;
    wake();
    if (queuedBytes > highWaterMark) await new Promise<void>((resolve) => (wakeWriter = resolve));
    if (gone) throw new ConsumerGone();
  };
  void produce(write).then(
    () => {
      finished = true;
      wake();
    },
    (error: unknown) => {
      failure = { error };
      finished = true;
      wake();
    },
  );
  try {
    for (;;) {
      const chunk = queue.shift();
      if (chunk) {
        queuedBytes -= chunk.length;
        if (queuedBytes <= highWaterMark) {
          wakeWriter?.();
          wakeWriter = undefined;
        }
        yield chunk;
        continue;
      }
      if (finished) {
        if (failure) throw failure.error;
        return;
      }
      await new Promise<void>((resolve) => (wakeReader = resolve));
    }
  } finally {
    gone = true;
    wakeWriter?.();
  }
}
