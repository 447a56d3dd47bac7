/**
 * The adapter between the pack writer (which writes chunks to a sink) and a streamed response
 * body (an async iterable the platform pipes to Lambda's response stream), and the framing of the
 * pack data on the side band.
 */
import { describe, expect, it } from 'vitest';
import { sideband } from '../../../../shared/repository/git/protocol/sideband';
import { ConsumerGone, producedChunks } from '../../../../shared/repository/smart-http/chunks';
import { packDataPackets } from '../../../../shared/repository/smart-http/upload-pack';

describe('producedChunks', () => {
  it('gives the chunks in order, the producer running only as far ahead as the high-water mark', async () => {
    // Prepare
    let written = 0;
    const chunks = producedChunks(async (write) => {
      for (let i = 0; i < 10; i++) {
        await write(Buffer.alloc(100, i));
        written++;
      }
    }, 250);

    // Act: read one chunk, then let the producer run as far as it may.
    const iterator = chunks[Symbol.asyncIterator]();
    const first = await iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const aheadAfterOne = written;
    const rest: Buffer[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);

    // Assert: at most 250 unread bytes (3 chunks of 100) are written ahead of the reader.
    expect(first.value).toEqual(Buffer.alloc(100, 0));
    expect(aheadAfterOne).toBeLessThanOrEqual(4);
    expect(rest.map((chunk) => chunk[0])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(written).toBe(10);
  });

  it('throws the producer’s failure to the reader after the chunks written before it', async () => {
    // Prepare
    const chunks = producedChunks(async (write) => {
      await write(Buffer.from('a'));
      throw new Error('pack writer failed');
    });

    // Act
    const read: string[] = [];
    const reading = (async () => {
      for await (const chunk of chunks) read.push(chunk.toString());
    })();

    // Assert
    await expect(reading).rejects.toThrow('pack writer failed');
    expect(read).toEqual(['a']);
  });

  it('stops the producer with ConsumerGone when the reader stops', async () => {
    // Prepare
    let failure: unknown;
    let producing: Promise<void> = Promise.resolve();
    const chunks = producedChunks((write) => {
      producing = (async () => {
        try {
          for (;;) await write(Buffer.alloc(10));
        } catch (error) {
          failure = error;
        }
      })();
      return producing;
    }, 50);

    // Act: one chunk read, then the reader is done (as when the client goes away).
    for await (const chunk of chunks) {
      expect(chunk.length).toBe(10);
      break;
    }
    await producing;

    // Assert
    expect(failure).toBeInstanceOf(ConsumerGone);
  });
});

describe('packDataPackets', () => {
  it('frames pack data on band 1 as sideband() does', () => {
    for (const mode of ['side-band', 'side-band-64k'] as const) {
      for (const length of [0, 1, 994, 995, 996, 65515, 65516, 200_000]) {
        const data = Buffer.from(Array.from({ length }, (_, i) => i % 251));
        expect(packDataPackets(data, mode).equals(sideband(1, data, mode))).toBe(true);
      }
    }
  });
});
