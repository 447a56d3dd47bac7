/**
 * The webhook sender against real local HTTP servers: what arrives, how failures are reported,
 * and which URLs are refused before any connection is made.
 */
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isLocalNetworkAddress, LOCAL_NETWORK_ERROR, sendHook, type HookRequest } from '../../shared/hooks/send';

interface Received {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  port: number;
  received: Received[];
  close: () => Promise<void>;
}

const servers: TestServer[] = [];

/** Starts a server on 127.0.0.1 that records each request and answers with `respond`. */
async function startServer(respond: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end('ok')): Promise<TestServer> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      respond(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const testServer: TestServer = {
    port: (server.address() as AddressInfo).port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(testServer);
  return testServer;
}

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const hookRequest = (url: string, overrides: Partial<HookRequest> = {}): HookRequest => ({
  url,
  headers: { 'Content-Type': 'application/json', 'X-Gitlab-Event': 'Issue Hook', 'X-Gitlab-Token': 's3cret' },
  body: JSON.stringify({ object_kind: 'issue' }),
  verifySsl: true,
  ...overrides,
});

const local = { allowLocalNetwork: true };
const guarded = { allowLocalNetwork: false };

describe('sendHook', () => {
  it('POSTs the body and headers as given and reports a 2xx as ok', async () => {
    const server = await startServer((_req, res) => {
      res.statusCode = 201;
      res.end();
    });
    const request = hookRequest(`http://127.0.0.1:${server.port}/hooks/gitlab?x=1`);

    const result = await sendHook(request, local);

    expect(result).toEqual({ ok: true, status: 201, durationMs: expect.any(Number) });
    expect(server.received).toHaveLength(1);
    const [received] = server.received;
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/hooks/gitlab?x=1');
    expect(received.body).toBe(request.body);
    expect(received.headers).toMatchObject({
      'content-type': 'application/json',
      'x-gitlab-event': 'Issue Hook',
      'x-gitlab-token': 's3cret',
      'content-length': String(Buffer.byteLength(request.body)),
      host: `127.0.0.1:${server.port}`,
    });
    expect(received.headers.authorization).toBeUndefined();
  });

  it('reports a 500 as a failure with its status', async () => {
    const server = await startServer((_req, res) => {
      res.statusCode = 500;
      res.end('boom');
    });

    const result = await sendHook(hookRequest(`http://127.0.0.1:${server.port}/`), local);

    expect(result).toEqual({ ok: false, status: 500, error: 'HTTP 500', durationMs: expect.any(Number) });
  });

  it('does not follow a redirect: a 302 is only a status', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(302, { Location: '/elsewhere' });
      res.end();
    });

    const result = await sendHook(hookRequest(`http://127.0.0.1:${server.port}/hook`), local);

    expect(result).toMatchObject({ ok: false, status: 302 });
    expect(server.received.map((r) => r.url)).toEqual(['/hook']);
  });

  it('gives up on a server that does not answer within the timeout', async () => {
    const server = await startServer(() => {
      // never answers
    });

    const result = await sendHook(hookRequest(`http://127.0.0.1:${server.port}/`), { ...local, timeoutMs: 200 });

    expect(result).toMatchObject({ ok: false, error: 'Request timed out' });
    expect(result.durationMs).toBeGreaterThanOrEqual(190);
    expect(result.durationMs).toBeLessThan(2_000);
  });

  it('stops reading a large response after 64 KiB', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      // Far more than is read; the sender closes the socket instead of waiting for it all.
      const write = () => {
        while (res.write(chunk)) {
          if (res.writableLength > 4 * 1024 * 1024) break;
        }
      };
      res.on('drain', write);
      write();
    });

    const result = await sendHook(hookRequest(`http://127.0.0.1:${server.port}/`), { ...local, timeoutMs: 5_000 });

    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(result.durationMs).toBeLessThan(5_000);
  });

  it('turns credentials in the URL into a Basic Authorization header, not part of the request line', async () => {
    const server = await startServer();

    const result = await sendHook(hookRequest(`http://hook%20user:p%40ss@127.0.0.1:${server.port}/path`), local);

    expect(result.ok).toBe(true);
    const [received] = server.received;
    expect(received.url).toBe('/path');
    expect(received.headers.authorization).toBe(`Basic ${Buffer.from('hook user:p@ss').toString('base64')}`);
  });

  it('reports a refused connection without throwing', async () => {
    const server = await startServer();
    const port = server.port;
    await server.close();
    servers.pop();

    const result = await sendHook(hookRequest(`http://127.0.0.1:${port}/`), local);

    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('ECONNREFUSED') });
    expect(result).not.toHaveProperty('status');
  });

  it('reports a host that does not resolve', async () => {
    const result = await sendHook(hookRequest('http://no-such-host.invalid/'), { ...guarded, timeoutMs: 5_000 });

    expect(result).toMatchObject({ ok: false });
    expect(['Host cannot be resolved or invalid', 'Request timed out']).toContain((result as { error: string }).error);
  });

  it('connects to the address it checked, once, keeping the hostname in the Host header', async () => {
    const server = await startServer();
    // A resolver that would answer differently the second time (DNS rebinding).
    const answers = ['127.0.0.1', '10.255.255.1'];
    const lookup = vi
      .spyOn(dns.promises, 'lookup')
      .mockImplementation((async () => [{ address: answers.shift()!, family: 4 }]) as unknown as typeof dns.promises.lookup);

    const result = await sendHook(hookRequest(`http://hooks.example.test:${server.port}/`), { ...local, timeoutMs: 2_000 });

    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(lookup).toHaveBeenCalledWith('hooks.example.test', { all: true });
    expect(server.received[0].headers.host).toBe(`hooks.example.test:${server.port}`);
  });

  it('refuses a name when any of its addresses is local', async () => {
    const server = await startServer();
    vi.spyOn(dns.promises, 'lookup').mockImplementation((async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ]) as unknown as typeof dns.promises.lookup);

    const result = await sendHook(hookRequest(`http://mixed.example.test:${server.port}/`), guarded);

    expect(result).toMatchObject({ ok: false, error: LOCAL_NETWORK_ERROR });
    expect(server.received).toHaveLength(0);
  });

  describe('without local network access', () => {
    it.each([
      ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/`],
      ['localhost', (port: number) => `http://localhost:${port}/`],
      ['[::1]', (port: number) => `http://[::1]:${port}/`],
      ['IPv4-mapped ::ffff:127.0.0.1', (port: number) => `http://[::ffff:127.0.0.1]:${port}/`],
      ['0.0.0.0', (port: number) => `http://0.0.0.0:${port}/`],
      ['127.1 (short form)', (port: number) => `http://127.1:${port}/`],
      ['2130706433 (decimal form)', (port: number) => `http://2130706433:${port}/`],
    ])('refuses %s without connecting', async (_name, urlFor) => {
      const server = await startServer();

      const result = await sendHook(hookRequest(urlFor(server.port)), guarded);

      expect(result).toEqual({ ok: false, error: LOCAL_NETWORK_ERROR, durationMs: expect.any(Number) });
      expect(server.received).toHaveLength(0);
    });

    it.each(['http://10.0.0.1/hook', 'http://169.254.169.254/latest/meta-data/', 'http://0.0.0.0', 'http://192.168.1.10:8080/', 'http://[fd00::1]/'])(
      'refuses %s',
      async (url) => {
        const result = await sendHook(hookRequest(url), guarded);

        expect(result).toMatchObject({ ok: false, error: LOCAL_NETWORK_ERROR });
      },
    );
  });

  it.each([
    ['ftp://example.com/hook', 'Only allowed schemes are http, https'],
    ['file:///etc/passwd', 'Only allowed schemes are http, https'],
    ['not a url', 'URI is invalid'],
    ['http://example.com/\r\nX-Injected: 1', 'URI is invalid'],
  ])('refuses %j', async (url, error) => {
    const result = await sendHook(hookRequest(url), local);

    expect(result).toMatchObject({ ok: false, error });
  });

  it('throws for a timeout that is not a positive number (a programming error)', async () => {
    await expect(sendHook(hookRequest('http://127.0.0.1/'), { ...local, timeoutMs: 0 })).rejects.toThrow(RangeError);
  });
});

describe('isLocalNetworkAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['10.0.0.1', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['192.168.0.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['100.127.255.255', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['239.255.255.250', true],
    ['255.255.255.255', true],
    ['::', true],
    ['::1', true],
    ['[::1]', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['fc00::1', true],
    ['fd12:3456:789a::1', true],
    ['ff02::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:169.254.169.254', true],
    ['::ffff:0.0.0.0', true],
    ['64:ff9b::7f00:1', true],
    ['2002:7f00:1::', true],
    ['not-an-ip', true],
    ['8.8.8.8', false],
    ['1.1.1.1', false],
    ['172.32.0.1', false],
    ['100.128.0.1', false],
    ['169.255.0.1', false],
    ['93.184.215.14', false],
    ['2606:4700::1111', false],
    ['2a00:1450:4001:82b::200e', false],
    ['::ffff:8.8.8.8', false],
  ])('%s → %s', (ip, expected) => {
    expect(isLocalNetworkAddress(ip)).toBe(expected);
  });
});
