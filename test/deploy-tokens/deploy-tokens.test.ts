/**
 * The deploy tokens feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/deploy-tokens/store/keys.ts`), and its own logic: GitLab's validation sentences, when a
 * token works, which projects a token reaches, and that a holder's removal takes the pointers
 * git authenticates with.
 */
import { BatchWriteCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDeployToken, deployTokenErrors, toSentence } from '../../shared/deploy-tokens/commands/deploy-tokens';
import { holderReaches, isDeployTokenActive } from '../../shared/deploy-tokens/queries/deploy-tokens';
import { deleteHolderTokens } from '../../shared/deploy-tokens/store/deploy-tokens';
import { deployTokenCollections, deployTokenKeys, keySpace } from '../../shared/deploy-tokens/store/keys';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import { idsEndAt, sequencesDrawn } from '../support/ids';
import { describeKeySpace } from '../support/key-space';
import { useMockedTable } from '../support/mocked-table';

const ddbMock = useMockedTable('deploy-token-keys-test');
const project = { kind: 'project', id: 7 } as const;
const group = { kind: 'group', id: 3 } as const;

describeKeySpace(
  {
    feature: 'deploy-tokens',
    keySpace,
    keys: {
      name: 'deployTokenKeys',
      builders: deployTokenKeys,
      samples: {
        token: [() => deployTokenKeys.token(project, 12), () => deployTokenKeys.token(group, 12)],
        ciSecret: () => deployTokenKeys.ciSecret(group, 12),
        digest: () => deployTokenKeys.digest('ab'.repeat(32)),
      } satisfies Record<keyof typeof deployTokenKeys, unknown>,
    },
    collections: {
      name: 'deployTokenCollections',
      builders: deployTokenCollections,
      samples: {
        tokens: () => deployTokenCollections.tokens(project),
        ciSecrets: () => deployTokenCollections.ciSecrets(group),
        holder: () => deployTokenCollections.holder(group),
      } satisfies Record<keyof typeof deployTokenCollections, () => Collection>,
      wholePartition: ['holder'],
    },
    outside: { PK: 'DEPLOY_TOKENS#PROJECT#7', SK: 'WIDGET#000000000001' } satisfies Key,
  },
  () => {
    it('keeps a project\'s and a group\'s tokens apart, and CI secrets out of the token list', () => {
      const within = (key: Key, collection: Collection) => key.PK === collection.partitionValue && key.SK.startsWith(collection.prefix ?? '');
      expect(within(deployTokenKeys.token(project, 1), deployTokenCollections.tokens(project))).toBe(true);
      expect(within(deployTokenKeys.token({ kind: 'group', id: 7 }, 1), deployTokenCollections.tokens(project))).toBe(false);
      expect(within(deployTokenKeys.ciSecret(project, 1), deployTokenCollections.tokens(project))).toBe(false);
    });

    it('draws ids only from the sequences it declares', async () => {
      ddbMock.on(UpdateCommand).callsFake(idsEndAt(3));
      ddbMock.on(TransactWriteCommand).resolves({});
      await createDeployToken(project, 1, { name: 'x', scopes: ['read_repository'] });
      expect(sequencesDrawn(ddbMock.commandCalls(UpdateCommand).map((call) => call.args[0].input))).toEqual(keySpace.sequences);
    });
  },
);

describe('deploy token rules', () => {
  it('words validation errors as GitLab\'s full messages, in one sentence', () => {
    expect(deployTokenErrors({ name: 'x', scopes: ['read_repository'], username: 'gitlab+deploy-token_1.a-b' })).toEqual([]);
    expect(toSentence(deployTokenErrors({ name: 'x', scopes: [], username: 'a b' }))).toBe(
      "Scopes can't be blank and Username can contain only letters, digits, '_', '-', '+', and '.'",
    );
    expect(toSentence(['a', 'b', 'c'])).toBe('a, b, and c');
  });

  it('works until its expiry instant unless revoked', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(isDeployTokenActive({ revoked: false, expiresAt: null }, now)).toBe(true);
    expect(isDeployTokenActive({ revoked: false, expiresAt: '2026-01-01T12:00:00.000Z' }, now)).toBe(true);
    expect(isDeployTokenActive({ revoked: false, expiresAt: '2026-01-01T00:00:00.000Z' }, now)).toBe(false);
    expect(isDeployTokenActive({ revoked: true, expiresAt: null }, now)).toBe(false);
  });

  it('reaches its own project, or the projects of its group and subgroups', () => {
    expect(holderReaches(project, { id: 7 }, { id: 99, ancestorIds: [] })).toBe(true);
    expect(holderReaches(project, { id: 8 }, { id: 99, ancestorIds: [] })).toBe(false);
    expect(holderReaches(group, { id: 8 }, { id: 3, ancestorIds: [] })).toBe(true);
    expect(holderReaches(group, { id: 8 }, { id: 5, ancestorIds: [1, 3] })).toBe(true);
    expect(holderReaches(group, { id: 8 }, { id: 1, ancestorIds: [] })).toBe(false);
    // A project id equal to the group's id is no reason.
    expect(holderReaches(group, { id: 3 }, { id: 4, ancestorIds: [] })).toBe(false);
  });

  it('removes a holder\'s tokens with the pointers git authenticates with, pointers first', async () => {
    const token = { ...deployTokenKeys.token(group, 4), type: 'DeployToken', id: 4, digest: 'd4' };
    const secret = { ...deployTokenKeys.ciSecret(group, 4), type: 'DeployTokenCiSecret', tokenId: 4 };
    ddbMock.on(QueryCommand).resolves({ Items: [secret, token] });
    ddbMock.on(BatchWriteCommand).resolves({});
    await deleteHolderTokens(group);
    const deleted = ddbMock.commandCalls(BatchWriteCommand).map((call) => Object.values(call.args[0].input.RequestItems!)[0].map((request) => request.DeleteRequest!.Key));
    expect(deleted).toEqual([[deployTokenKeys.digest('d4')], [deployTokenKeys.ciSecret(group, 4), deployTokenKeys.token(group, 4)]]);
  });
});
