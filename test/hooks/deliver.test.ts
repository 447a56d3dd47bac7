/**
 * Delivery is generic: it sends an event of any kind with the payload builder the registry gives
 * for that kind (which hooks, which `X-Gitlab-Event`, which body), knowing nothing of issues. Here
 * with a kind made up for the test, a mocked table and a real local receiver.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchGetCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { deliverHookEvent, type HookDeliveryContext, type HookPayloadBuilder, type HookPayloadRegistry } from '../../shared/hooks/deliver';
import type { HookEventFields } from '../../shared/hooks/store/hook-events';
import { DEFAULT_HOOK_TRIGGERS, type ProjectHook } from '../../shared/hooks/store/hooks';
import { hookKeys } from '../../shared/hooks/store/keys';
import { namespaceKeys } from '../../shared/namespaces/store/keys';
import { projectKeys } from '../../shared/projects/store/keys';
import { userKeys } from '../../shared/users/store/keys';
import { resetConfig } from '../../shared/platform/config';
import { resetSecretBox, sealSecret } from '../../shared/platform/crypto/secret-box';
import { useMockedTable } from '../support/mocked-table';

const ddbMock = useMockedTable('deliver-test');

/** A kind no feature declares: a ping telling a message, sent to hooks with `wiki_page_events`. */
type PingEvent = HookEventFields<'ping'> & { action: 'ping'; message: string; mentionedId: number };

const event: PingEvent = { id: 41, projectId: 7, actorId: 1, kind: 'ping', action: 'ping', message: 'hello', mentionedId: 2, createdAt: '2026-01-01T00:00:00.000Z' };

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let receiverUrl: string;
const received: Received[] = [];
const saved = process.env.SECRET_BOX_KEY;

beforeAll(async () => {
  process.env.SECRET_BOX_KEY = 'deliver-unit-key';
  resetConfig();
  resetSecretBox();
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (saved === undefined) delete process.env.SECRET_BOX_KEY;
  else process.env.SECRET_BOX_KEY = saved;
  resetConfig();
  resetSecretBox();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received.length = 0;
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** A stored hook of project 7, as the table holds it. */
const hookItem = (hook: Partial<ProjectHook> & { id: number }) => ({
  ...hookKeys.hook(7, hook.id),
  type: 'ProjectHook',
  ...DEFAULT_HOOK_TRIGGERS,
  url: `${receiverUrl}/hook-${hook.id}`,
  projectId: 7,
  hasToken: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...hook,
});

/** The table as delivery reads it: the project's hooks, the project, its namespace and users 1 (actor) and 2. */
function table(hooks: Array<Record<string, unknown>>) {
  ddbMock.on(QueryCommand).resolves({ Items: hooks });
  ddbMock.on(GetCommand, { Key: projectKeys.project(7) }).resolves({ Item: { ...projectKeys.project(7), id: 7, name: 'Diaspora', path: 'diaspora', namespaceId: 3 } });
  ddbMock.on(GetCommand, { Key: namespaceKeys.namespace(3) }).resolves({ Item: { ...namespaceKeys.namespace(3), id: 3, name: 'Mike', fullPath: 'mike' } });
  ddbMock.on(BatchGetCommand).callsFake((input) => {
    const [tableName] = Object.keys(input.RequestItems);
    const keys = input.RequestItems[tableName].Keys as Array<{ PK: string }>;
    const users = [1, 2].filter((id) => keys.some((key) => key.PK === userKeys.user(id).PK));
    return { Responses: { [tableName]: users.map((id) => ({ ...userKeys.user(id), id, username: `user${id}`, name: `User ${id}` })) } };
  });
}

/** The made-up kind's builder, recording the context it was given. */
function pingBuilder(contexts: HookDeliveryContext[]): HookPayloadBuilder<PingEvent> {
  return {
    trigger: () => 'wikiPageEvents',
    eventName: () => 'Ping Hook',
    userIds: (ping) => [ping.mentionedId],
    build: async (ping, context) => {
      contexts.push(context);
      return { object_kind: 'ping', message: ping.message, user: context.actor.username, mentioned: context.users.get(ping.mentionedId)?.username, project: context.namespace.fullPath };
    },
  };
}

describe('deliverHookEvent with a registry of a made-up kind', () => {
  it("sends the kind's body and event name to the hooks its trigger selects, with their tokens", async () => {
    // Prepare
    const tokenSealed = await sealSecret('ping-secret');
    table([hookItem({ id: 1, wikiPageEvents: true, hasToken: true, tokenSealed }), hookItem({ id: 2 })]);
    const contexts: HookDeliveryContext[] = [];
    const payloads: HookPayloadRegistry = { ping: pingBuilder(contexts) };

    // Act
    const report = await deliverHookEvent(event, { allowLocalNetwork: true, payloads });

    // Assess
    expect(report).toEqual([{ hookId: 1, result: { ok: true, status: 200, durationMs: expect.any(Number) } }]);
    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(delivery.path).toBe('/hook-1');
    expect(JSON.parse(delivery.body)).toEqual({ object_kind: 'ping', message: 'hello', user: 'user1', mentioned: 'user2', project: 'mike' });
    expect(delivery.headers).toMatchObject({
      'content-type': 'application/json',
      'x-gitlab-event': 'Ping Hook',
      'x-gitlab-token': 'ping-secret',
      'idempotency-key': delivery.headers['x-gitlab-event-uuid'],
    });
    expect(contexts).toEqual([
      expect.objectContaining({ project: expect.objectContaining({ id: 7 }), namespace: expect.objectContaining({ id: 3 }), actor: expect.objectContaining({ id: 1 }) }),
    ]);
    expect([...contexts[0].users.keys()].sort()).toEqual([1, 2]);
  });

  it('reads nothing more and sends nothing when no hook has the trigger on', async () => {
    // Prepare
    table([hookItem({ id: 2 })]);
    const contexts: HookDeliveryContext[] = [];

    // Act
    const report = await deliverHookEvent(event, { allowLocalNetwork: true, payloads: { ping: pingBuilder(contexts) } });

    // Assess
    expect(report).toEqual([]);
    expect(contexts).toEqual([]);
    expect(ddbMock.commandCalls(GetCommand)).toHaveLength(0);
    expect(received).toEqual([]);
  });

  it('drops an event of a kind the registry has no builder for, without reading the table', async () => {
    // Prepare
    table([hookItem({ id: 1, wikiPageEvents: true })]);

    // Act
    const report = await deliverHookEvent({ ...event, kind: 'unknown' }, { allowLocalNetwork: true, payloads: { ping: pingBuilder([]) } });

    // Assess
    expect(report).toEqual([]);
    expect(ddbMock.calls()).toHaveLength(0);
    expect(received).toEqual([]);
  });
});
