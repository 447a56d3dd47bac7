/**
 * A webhook receiver for end-to-end hook tests: an HTTP server on 127.0.0.1 that records every
 * delivery, and a wait for the deliveries a test expects (delivery is asynchronous: the outbox,
 * the table's stream, the delivery function).
 *
 * Only the local runtime may reach 127.0.0.1 (it runs with `HOOKS_ALLOW_LOCAL_NETWORK=true`;
 * deployed, hooks to private addresses are refused), so files using it run locally only.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  /** The request path the hook was registered with (`/ci` of `http://127.0.0.1:port/ci`). */
  path: string;
  headers: IncomingHttpHeaders;
  /** `X-Gitlab-Event` (`Push Hook`, `Issue Hook`, …). */
  event: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- webhook payloads are read field by field
  body: Record<string, any>;
}

/** How long {@link WebhookReceiver.received} waits for deliveries before answering what came. */
const WAIT_MS = 15_000;

export class WebhookReceiver {
  private constructor(
    private readonly server: Server,
    /** Every delivery so far, in arrival order. */
    readonly deliveries: Delivery[],
  ) {}

  /** Starts a receiver on a free port of 127.0.0.1; every request is recorded and answered 200. */
  static async start(): Promise<WebhookReceiver> {
    const deliveries: Delivery[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        deliveries.push({
          path: request.url ?? '',
          headers: request.headers,
          event: String(request.headers['x-gitlab-event']),
          body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'),
        });
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new WebhookReceiver(server, deliveries);
  }

  /** The URL a hook registers to deliver here under `path`. */
  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /**
   * The deliveries to `path` (any path when undefined) that `match`, once there are `count` of
   * them or {@link WAIT_MS} passed (then fewer: the test's assertion tells what is missing).
   */
  async received(path: string | undefined, match: (delivery: Delivery) => boolean, count = 1): Promise<Delivery[]> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const got = this.deliveries.filter((delivery) => (path === undefined || delivery.path === path) && match(delivery));
      if (got.length >= count || Date.now() > deadline) return got;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The first delivery (to any path) that matches, or undefined once {@link WAIT_MS} passed. */
  async first(match: (delivery: Delivery) => boolean): Promise<Delivery | undefined> {
    return (await this.received(undefined, match))[0];
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
  }
}
