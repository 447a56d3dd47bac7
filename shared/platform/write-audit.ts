/**
 * The write audit: which DynamoDB and S3 writes a route made, for the guard rail "bad input
 * changes nothing" (test/platform/hostile-input.integration.test.ts). Off unless `WRITE_AUDIT=true`
 * (the integration tests' local runtime sets it; a deployed stack never does).
 *
 * When on, the AWS SDK clients count every write command that succeeded (a failed conditional
 * write or transaction writes nothing) in the audit of the request whose route made it (Node's
 * AsyncLocalStorage: requests served side by side in one process are told apart), and the group
 * handler answers it in `X-Route-Writes` (the commands' names, comma-separated; empty for none).
 *
 * Only the route's own writes count: what the middlewares before it record (the caller's
 * `last_activity_on`, once a day, as GitLab records activity for any authenticated request) is
 * bookkeeping of the caller, not of the resource the request names.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { config } from './config';

/** The header that names a route's writes when the audit is on. */
export const WRITES_HEADER = 'X-Route-Writes';

/** Commands that change the table or the bucket. */
const WRITE_COMMANDS = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
  'ExecuteStatementCommand',
  'BatchExecuteStatementCommand',
  'ExecuteTransactionCommand',
  'PutObjectCommand',
  'CopyObjectCommand',
  'DeleteObjectCommand',
  'DeleteObjectsCommand',
  'CreateMultipartUploadCommand',
  'UploadPartCommand',
  'UploadPartCopyCommand',
  'CompleteMultipartUploadCommand',
]);

const audits = new AsyncLocalStorage<string[]>();

/** Whether writes are audited (`WRITE_AUDIT=true`). */
export const writeAuditEnabled = (): boolean => config().writeAudit;

/**
 * Runs `fn` with an audit of its writes; `writes` is filled as they succeed (also when `fn`
 * throws, so a refused request's writes are known too).
 */
export function auditWrites<T>(writes: string[], fn: () => Promise<T>): Promise<T> {
  return audits.run(writes, fn);
}

/** The part of an AWS SDK client's middleware stack the audit uses. */
interface AuditableStack {
  add(
    middleware: (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => (args: unknown) => Promise<unknown>,
    options: { step: 'initialize'; name: string },
  ): void;
}

/**
 * Adds the audit's counting to an AWS SDK client's middleware stack, where the audit is on: after
 * a write command succeeds, its name goes to the current request's audit, if any.
 */
export function countWrites<C>(client: C): C {
  if (!writeAuditEnabled()) return client;
  // Typed here by the part used: the SDK's own middleware types live in a package not depended on directly.
  (client as unknown as { middlewareStack: AuditableStack }).middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const command = context.commandName ?? '';
      if (WRITE_COMMANDS.has(command)) audits.getStore()?.push(command.replace(/Command$/, ''));
      return result;
    },
    { step: 'initialize', name: 'writeAudit' },
  );
  return client;
}
