/**
 * The lookup from a project's runners registration token to the project (`RUNNERS_TOKEN#<sha256>`)
 * lives and dies with the project: it is written in the transaction that creates the project (so
 * `POST /runners` works before anything else happened) and deleted in the one that removes it (so
 * no stale lookup is left behind). Checked on the transactions sent to a mocked table.
 */
import { BatchGetCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Namespace } from '../../shared/namespaces';
import { removeProjectItem } from '../../shared/projects/store/deletion';
import { projectKeys } from '../../shared/projects/store/keys';
import { insertProject, projectIdForRunnersToken, type Project } from '../../shared/projects/store/projects';
import { useMockedTable } from '../support/mocked-table';

const TABLE = 'runners-token-test';
const ddb = useMockedTable(TABLE);
const TOKEN = 'GR1348941abcdefghijklmnopqrst';

const namespace = { id: 3, kind: 'user', path: 'alice', fullPath: 'alice', ownerId: 11 } as Namespace;
const project = {
  id: 7,
  name: 'Demo',
  path: 'demo',
  namespaceId: 3,
  visibility: 'private',
  forkedFromId: null,
  runnersTokenSealed: 'sealed',
} as unknown as Project;

/** The items of the one transaction sent, by their key. */
function transactionItems() {
  const [call] = ddb.commandCalls(TransactWriteCommand);
  return call.args[0].input.TransactItems ?? [];
}

describe('the runners token lookup', () => {
  it('is put, never overwritten, in the transaction that creates the project', async () => {
    // Prepare
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    expect(await insertProject(project, namespace, { runnersToken: TOKEN })).toBe('created');

    // Assess
    const key = projectKeys.runnersToken(TOKEN);
    expect(key.PK).toMatch(/^RUNNERS_TOKEN#[0-9a-f]{64}$/);
    expect(key.PK).not.toContain(TOKEN);
    const put = transactionItems().find((item) => item.Put?.Item?.PK === key.PK);
    expect(put?.Put).toMatchObject({ TableName: TABLE, Item: { ...key, projectId: 7 }, ConditionExpression: 'attribute_not_exists(PK)' });
    expect(transactionItems().some((item) => item.Put?.Item?.PK === 'PROJECT#7')).toBe(true);
  });

  it('is deleted in the transaction that removes the project item', async () => {
    // Prepare: the namespace is gone already (no count to take down).
    ddb.on(BatchGetCommand).resolves({ Responses: {} });
    ddb.on(TransactWriteCommand).resolves({});

    // Act
    expect(await removeProjectItem(project, TOKEN)).toBe('removed');

    // Assess
    const deletes = transactionItems().flatMap((item) => (item.Delete ? [item.Delete.Key] : []));
    expect(deletes).toContainEqual(projectKeys.runnersToken(TOKEN));
    expect(deletes).toContainEqual(projectKeys.project(7));
  });

  it('answers the project of a known token and nothing for an unknown or empty one', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: projectKeys.runnersToken(TOKEN) }).resolves({ Item: { ...projectKeys.runnersToken(TOKEN), projectId: 7 } });
    ddb.on(GetCommand, { Key: projectKeys.runnersToken('GR1348941unknown') }).resolves({});

    // Act and assess
    expect(await projectIdForRunnersToken(TOKEN)).toBe(7);
    expect(await projectIdForRunnersToken('GR1348941unknown')).toBeUndefined();
    expect(await projectIdForRunnersToken('')).toBeUndefined();
  });
});
