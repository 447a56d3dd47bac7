/**
 * The delivery function's batch handling: one project's events in order, projects independent,
 * and a record that cannot be delivered reported (with its sequence number) for the stream to
 * retry from there. Delivery itself is mocked here; it runs for real in
 * test/hooks/delivery.integration.test.ts (and with a made-up kind in test/hooks/deliver.test.ts).
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler, payloads } from '../../functions/hook_delivery/handler';
import type { HookEvent } from '../../shared/hooks/store/hook-events';
import { deliverHookEvent } from '../../shared/hooks/deliver';
import { resetConfig } from '../../shared/platform/config';
import { issueRecord } from '../support/records';

vi.mock('../../shared/hooks/deliver', () => ({ deliverHookEvent: vi.fn() }));
const deliver = vi.mocked(deliverHookEvent);

/** A stream record of a new hook event of `projectId`, as Lambda passes it. */
function record(id: number, projectId: number): DynamoDBRecord {
  const item = { PK: `PROJECT#${projectId}`, SK: `HOOK_EVENT#${id}`, type: 'HookEvent', id, projectId, actorId: 1, kind: 'issue', action: 'open', issue: issueRecord({ projectId }), previous: null, createdAt: '' };
  return { eventID: `e${id}`, eventName: 'INSERT', dynamodb: { NewImage: marshall(item) as never, SequenceNumber: `${1000 + id}` } };
}

const savedAllow = process.env.HOOKS_ALLOW_LOCAL_NETWORK;
afterAll(() => {
  if (savedAllow === undefined) delete process.env.HOOKS_ALLOW_LOCAL_NETWORK;
  else process.env.HOOKS_ALLOW_LOCAL_NETWORK = savedAllow;
  resetConfig();
});

beforeEach(() => {
  // As deployed (the local runtime of the integration tests allows the local network).
  process.env.HOOKS_ALLOW_LOCAL_NETWORK = 'false';
  resetConfig();
  deliver.mockReset();
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

describe('hook delivery handler', () => {
  it("delivers each project's events in order and reports nothing when all went out", async () => {
    const order: number[] = [];
    deliver.mockImplementation(async (event: HookEvent) => {
      // The first event of project 1 is slow: project 2 must not wait for it, its own next event must.
      if (event.id === 1) await new Promise((resolve) => setTimeout(resolve, 30));
      order.push(event.id);
      return [];
    });

    const result = await handler({ Records: [record(1, 1), record(2, 2), record(3, 1), record(4, 2)] });

    expect(result).toEqual({ batchItemFailures: [] });
    expect(order.indexOf(1)).toBeLessThan(order.indexOf(3));
    expect(order.indexOf(2)).toBeLessThan(order.indexOf(4));
    expect(order.indexOf(4)).toBeLessThan(order.indexOf(1)); // project 2 went ahead
    expect(deliver).toHaveBeenCalledWith(expect.objectContaining({ id: 1, kind: 'issue', action: 'open' }), { allowLocalNetwork: false, payloads });
  });

  it("reports a project's first undeliverable record and stops that project there, not the others", async () => {
    deliver.mockImplementation(async (event: HookEvent) => {
      if (event.id === 3) throw new Error('table unavailable');
      return [];
    });

    const result = await handler({ Records: [record(1, 1), record(2, 2), record(3, 1), record(4, 2), record(5, 1)] });

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '1003' }] });
    const delivered = deliver.mock.calls.map(([event]) => event.id);
    expect(delivered).toEqual(expect.arrayContaining([1, 2, 3, 4]));
    expect(delivered).not.toContain(5); // retried with 3 by the stream
  });
});
