/**
 * The webhook outbox item: what a write stores and what the delivery function reads back from the
 * stream image. The outbox stores each kind as the kind's registered form says (a kind of its own
 * here), and as given without one; the issues feature's forms (`shared/issues/webhooks/events.ts`,
 * registered by importing it) store the previous issue as a diff, within a bounded size.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { hookEventFromImage, prepareHookEvent, registerHookEventForms, type HookEvent, type NewHookEvent } from '../../shared/hooks/store/hook-events';
import '../../shared/issues/webhooks/events';
import type { Issue } from '../../shared/issues/store/issues';
import { hookKeys } from '../../shared/hooks/store/keys';
import { useMockedTable } from '../support/mocked-table';
import { issueRecord } from '../support/records';
import { idsEndAt } from '../support/ids';

const ddbMock = useMockedTable('hook-events-test');

const issue = (overrides: Partial<Issue> = {}) => issueRecord({ labelIds: [11], ...overrides });

/** The item as the stream's new image carries it (DynamoDB JSON). */
const image = (item: Record<string, unknown>) => marshall(item, { removeUndefinedValues: true }) as never;

describe('prepareHookEvent', () => {
  it('stores the previous issue as the fields that changed, with a TTL, under the project', async () => {
    ddbMock.on(UpdateCommand).callsFake(idsEndAt(9));
    const before = issue();
    const after = issue({ title: 'Crash at boot', labelIds: [11, 12], movedToId: 80, version: 5 });

    const { event, put } = await prepareHookEvent({ projectId: 5, actorId: 2, kind: 'issue', action: 'update', issue: after, previous: before });

    expect(event.id).toBe(9);
    expect(put.Put.Item).toMatchObject({ ...hookKeys.hookEvent(5, 9), type: 'HookEvent', kind: 'issue', action: 'update', actorId: 2 });
    expect(put.Put.Item.previous).toEqual({ title: 'Crash', labelIds: [11], movedToId: null, version: 4 });
    const ttl = Number(put.Put.Item.expiresAtEpoch) - Date.now() / 1000;
    expect(ttl).toBeGreaterThan(23 * 3600);
    expect(ttl).toBeLessThanOrEqual(24 * 3600);

    // Read back as the delivery function does: the whole previous issue again.
    const read = hookEventFromImage(image(put.Put.Item));
    expect(read).toMatchObject({ id: 9, kind: 'issue', action: 'update', issue: after });
    expect(read.kind === 'issue' && read.previous).toEqual({ ...before, movedToId: null });
    expect(read).not.toHaveProperty('PK');
    expect(read).not.toHaveProperty('expiresAtEpoch');
  });

  it('leaves the description out of an event too large for one item instead of failing the write', async () => {
    ddbMock.on(UpdateCommand).callsFake(idsEndAt(10));
    const long = 'x'.repeat(200_000);
    const note = { id: 1, projectId: 5, issueIid: 3, issueId: 70, body: 'y'.repeat(200_000), authorId: 2, system: false, createdAt: '', updatedAt: '' };

    const { put } = await prepareHookEvent({ projectId: 5, actorId: 2, kind: 'note', action: 'create', note, issue: issue({ description: long }) });

    expect(put.Put.Item.issue).toMatchObject({ description: null, title: 'Crash' });
    expect(put.Put.Item.note).toMatchObject({ body: note.body });
    expect(Buffer.byteLength(JSON.stringify(put.Put.Item))).toBeLessThan(400_000);
  });
});

describe('the outbox, for any kind', () => {
  /** An event of a kind no feature declares (the outbox is typed for the declared ones only). */
  const ping = (kind: string) => ({ projectId: 5, actorId: 2, kind, action: 'ping', message: 'hello' }) as unknown as NewHookEvent;

  it('stores a kind with a registered form as the form says, and reads it back through it', async () => {
    // Prepare
    ddbMock.on(UpdateCommand).callsFake(idsEndAt(11));
    registerHookEventForms({
      shout: {
        toStored: (event) => ({ ...event, message: String(event.message).toUpperCase(), shouted: true }),
        fromStored: ({ shouted: _shouted, ...stored }: HookEvent) => ({ ...stored, message: String(stored.message).toLowerCase() }),
      },
    });

    // Act
    const { event, put } = await prepareHookEvent(ping('shout'));

    // Assess
    expect(put.Put.Item).toMatchObject({ ...hookKeys.hookEvent(5, 11), type: 'HookEvent', kind: 'shout', message: 'HELLO', shouted: true });
    expect(hookEventFromImage(image(put.Put.Item))).toEqual(event);
  });

  it('stores a kind without a registered form as given, and reads it back as stored', async () => {
    // Prepare
    ddbMock.on(UpdateCommand).callsFake(idsEndAt(12));
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);

    // Act
    const { event, put } = await prepareHookEvent(ping('whisper'));

    // Assess
    stderr.mockRestore();
    stdout.mockRestore();
    expect(event).toEqual({ projectId: 5, actorId: 2, kind: 'whisper', action: 'ping', message: 'hello', id: 12, createdAt: expect.any(String) });
    expect(put.Put.Item).toMatchObject({ ...hookKeys.hookEvent(5, 12), type: 'HookEvent', ...event });
    expect(hookEventFromImage(image(put.Put.Item))).toEqual(event);
  });
});
