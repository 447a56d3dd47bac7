/**
 * CloudFormation custom resource (onEvent handler of a CDK Provider): on every create and update
 * of the stack, makes sure the admin `root` exists and that the root token kept in Secrets
 * Manager authenticates as root, then runs the data migrations not yet run on the table
 * (`migrations.ts`). Nothing to do on delete (the table is retained).
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { ensureRootUser } from '../../shared/users/bootstrap';
import { logger } from '../../shared/platform/logger';
import { runMigrations } from './migrations';

const secrets = new SecretsManagerClient({});

export async function handler(event: CloudFormationCustomResourceEvent): Promise<{ PhysicalResourceId: string }> {
  const physicalResourceId = 'root-user';
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
  const secretArn = String(event.ResourceProperties.RootTokenSecretArn);
  const { SecretString: token } = await secrets.send(new GetSecretValueCommand({ SecretId: secretArn }));
  if (!token) throw new Error('root token secret is empty');
  const result = await ensureRootUser({ token, email: event.ResourceProperties.RootEmail as string | undefined });
  logger.info('bootstrap', { requestType: event.RequestType, rootCreated: result.created });
  await runMigrations();
  return { PhysicalResourceId: physicalResourceId };
}
