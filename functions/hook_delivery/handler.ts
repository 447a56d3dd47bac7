/**
 * Webhook delivery: the Lambda behind the table's stream (event source mapping filtered to new
 * `HookEvent` and `SystemHookEvent` items, `HOOK_EVENT_STREAM_FILTER`); locally the stream poller
 * of the runtime calls it the same way. Each record is one event of one project, delivered to that
 * project's hooks (and, for pushes and merge requests, to the system hooks that want them), or one
 * system event, delivered to the system hooks.
 *
 * The composition root of delivery: the hooks feature delivers events of any kind; the features
 * that write events give the payload builders of their kinds (the issues feature's `issue` and
 * `note`, the repository's `push` and `tag_push`, merge requests' and CI's `pipeline`, `job` and `deployment`, the wikis' `wiki_page`), and loading them registers how their events are
 * stored, for reading the records.
 *
 * A record whose delivery cannot even be attempted (the table could not be read) is reported in
 * `batchItemFailures`, so the stream retries it (and the records after it in its shard); a
 * receiver's failure is not a record failure. Records of other projects delivered in the same
 * batch may then be sent again: receivers tell repeats by `Idempotency-Key`.
 */
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { hookEventFromImage } from '../../shared/hooks/store/hook-events';
import { isSystemHookEventImage, systemHookEventFromImage } from '../../shared/hooks/store/system-events';
import { deliverSystemEvent } from '../../shared/hooks/system-delivery';
import { config } from '../../shared/platform/config';
import { logger } from '../../shared/platform/logger';
import { deliverHookEvent } from '../../shared/hooks/deliver';
import { payloads } from './payloads';

export { payloads };

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const allowLocalNetwork = config().hooksAllowLocalNetwork;
  // One project's events in order (open before close); projects in parallel, so a slow
  // receiver holds up only its own project's events.
  // System events (to the system hooks) in order too, as one more lane.
  const byProject = new Map<number | 'system', Array<{ record: DynamoDBRecord; deliver: () => Promise<unknown> }>>();
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage as Record<string, AttributeValue> | undefined;
    if (!image) continue;
    if (isSystemHookEventImage(image)) {
      const systemEvent = systemHookEventFromImage(image);
      byProject.set('system', [...(byProject.get('system') ?? []), { record, deliver: () => deliverSystemEvent(systemEvent, { allowLocalNetwork }) }]);
      continue;
    }
    const hookEvent = hookEventFromImage(image);
    byProject.set(hookEvent.projectId, [...(byProject.get(hookEvent.projectId) ?? []), { record, deliver: () => deliverHookEvent(hookEvent, { allowLocalNetwork, payloads }) }]);
  }
  const failed = await Promise.all(
    [...byProject.values()].map(async (entries) => {
      for (const { record, deliver } of entries) {
        try {
          await deliver();
        } catch (error) {
          // The mapping retries from the earliest failure on: this record and those after it.
          logger.error('webhook event not delivered; the stream will retry it', { eventID: record.eventID, error });
          return [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }];
        }
      }
      return [];
    }),
  );
  return { batchItemFailures: failed.flat() };
}
