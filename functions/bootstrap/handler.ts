/**
 * CloudFormation custom resource (onEvent handler of a CDK Provider): on every create and update
 * of the stack, makes sure the admin `root` exists and that the root token kept in Secrets
 * Manager authenticates as root, then runs the data migrations not yet run on the table
 * (`migrations.ts`). Those it has no time to finish (a large table) go on in the background, in
 * the jobs worker: the deploy does not fail on Lambda's 15 minutes, and readers keep to the old
 * ways until each migration's record exists. Nothing to do on delete (the table is retained).
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { CloudFormationCustomResourceEvent, Context } from 'aws-lambda';
import { ensureRootUser } from '../../shared/users/bootstrap';
import { logger } from '../../shared/platform/logger';
import { continueMigrationsInBackground, nearlyOver, runMigrations } from './migrations';

/**
 * The time the bootstrap keeps back: 10 of its 15 minutes. A step that overran its invocation
 * would fail the deploy (the jobs worker's would only be tried again), so it stops early and
 * leaves the rest to the worker.
 */
const RESERVE_MS = 10 * 60_000;

const secrets = new SecretsManagerClient({});

export async function handler(
  event: CloudFormationCustomResourceEvent,
  context?: Pick<Context, 'getRemainingTimeInMillis'>,
): Promise<{ PhysicalResourceId: string }> {
  const physicalResourceId = 'root-user';
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
  const secretArn = String(event.ResourceProperties.RootTokenSecretArn);
  const { SecretString: token } = await secrets.send(new GetSecretValueCommand({ SecretId: secretArn }));
  if (!token) throw new Error('root token secret is empty');
  const result = await ensureRootUser({ token, email: event.ResourceProperties.RootEmail as string | undefined });
  logger.info('bootstrap', { requestType: event.RequestType, rootCreated: result.created });
  const outcome = await runMigrations({ timeUp: nearlyOver(context, RESERVE_MS) });
  if (outcome !== 'done') await continueMigrationsInBackground();
  return { PhysicalResourceId: physicalResourceId };
}
