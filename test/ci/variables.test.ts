/**
 * Project and group CI/CD variables without a table: GitLab's validations (masked values as
 * `Ci::Maskable` allows them, key and scope rules), the environment scopes a job's environment
 * matches, and the store's writes checked on the requests sent to a mocked table: the value only
 * ever sealed, the (key, scope) taken and the owner's count moved by one conditional transaction.
 */
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { createVariable, editVariable, GROUP_VARIABLES_LIMIT, maskable, PROJECT_VARIABLES_LIMIT, removeVariable, variableErrors } from '../../shared/ci/commands/variables';
import { scopeRank, type ProjectVariable } from '../../shared/ci/queries/variables';
import type { CiVariable } from '../../shared/ci/store/variables';
import { openSecret, sealSecret } from '../../shared/platform/crypto/secret-box';
import { NotFoundError, ValidationError } from '../../shared/platform/http/errors';
import { withEnvironment } from '../support/environment';
import { cancelled, useMockedTable, writerOperations } from '../support/mocked-table';

const TABLE = 'ci-variables-test';
const ddb = useMockedTable(TABLE);
const SECRET = 'glpat-plaintext-0f3c9a';
const PROJECT = { kind: 'project', id: 7 } as const;
const GROUP = { kind: 'group', id: 7 } as const;
withEnvironment({ SECRET_BOX_KEY: 'ci-variables-unit-key' });

beforeEach(() => {
  ddb.on(TransactWriteCommand).resolves({});
});

/** Internal: the operations of the only transaction sent. */
function transaction(): NonNullable<TransactWriteCommandInput['TransactItems']> {
  const calls = ddb.commandCalls(TransactWriteCommand);
  expect(calls).toHaveLength(1);
  return writerOperations(calls[0].args[0].input);
}

/** Internal: every request sent to DynamoDB, serialized, to search for a plain value. */
const everythingSent = () => JSON.stringify(ddb.calls().map((call) => call.args[0].input));

const opened = (overrides: Partial<ProjectVariable> = {}): ProjectVariable => ({
  owner: PROJECT,
  key: 'DEPLOY_TOKEN',
  value: 'abcdefgh',
  variableType: 'env_var',
  protected: false,
  masked: false,
  hidden: false,
  raw: false,
  environmentScope: '*',
  description: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

async function stored(overrides: Partial<ProjectVariable> = {}): Promise<CiVariable> {
  const { value, ...variable } = opened(overrides);
  return { ...variable, valueSealed: await sealSecret(value) };
}

describe('masked values (Ci::Maskable)', () => {
  it.each([
    ['8 characters of the Base64 alphabet with @ : . ~', 'aZ09+/=_-@:.~', false, true],
    ['fewer than 8 characters', 'abc1234', false, false],
    ['a space', 'abcd efgh', false, false],
    ['two lines', 'abcdefgh\nijklmnop', false, false],
    ['a trailing newline', 'abcdefgh\n', false, false],
    ['a character outside the alphabet, expanded', 'abcdefgh$X!', false, false],
    ['any character but white space, raw', 'p@$$w0rd!#%^&*é', true, true],
    ['white space, raw', 'abcd\tefgh', true, false],
    ['8 code points of which some are astral, raw', '🔑🔑🔑🔑🔑🔑🔑🔑', true, true],
    ['7 code points (14 UTF-16 units), raw', '🔑🔑🔑🔑🔑🔑🔑', true, false],
  ])('%s: %s', (_case, value, raw, expected) => {
    expect(maskable(value, raw)).toBe(expected);
  });

  it('answers GitLab’s errors by attribute: key format, masked value, scope', () => {
    expect(variableErrors(opened({ key: 'BAD-KEY', masked: true, value: 'short', environmentScope: 'prod#1' }))).toEqual({
      key: ["can contain only letters, digits and '_'."],
      value: ['is invalid'],
      environment_scope: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces"],
    });
    expect(variableErrors(opened({ environmentScope: '' }))).toEqual({ environment_scope: ["can't be blank"] });
    expect(variableErrors(opened({ environmentScope: 'review/${CI_COMMIT_REF_SLUG} *.x' }))).toEqual({});
  });

  it('refuses to change whether a hidden variable is masked', async () => {
    const hidden = await stored({ masked: true, hidden: true });
    expect(variableErrors(opened({ masked: false, hidden: true }), hidden)).toEqual({ base: ['The visibility setting cannot be changed for masked and hidden variables.'] });
    expect(variableErrors(opened({ masked: true, hidden: true }), hidden)).toEqual({});
  });
});

describe('environment scopes (HasEnvironmentScope#on_environment)', () => {
  it.each([
    ['*', undefined, 0],
    ['production', undefined, undefined],
    ['*', 'production', 0],
    ['production', 'production', 2],
    ['review/*', 'review/app-1', 1],
    ['review/*', 'review/', 1],
    ['review/*', 'reviews/app', undefined],
    ['*/app', 'review/app', 1],
    ['r*v*w', 'review', 1],
    ['r*v*w', 'rw', undefined],
    ['prod*', 'staging', undefined],
    ['review/%', 'review/app', undefined],
  ] as const)('scope %s on environment %s ranks %s', (scope, environment, rank) => {
    expect(scopeRank(scope, environment)).toBe(rank);
  });
});

describe('the value, stored sealed', () => {
  it('creates the variable with its value sealed, never sent in clear, its (key, scope) and the count claimed together', async () => {
    // Act
    const variable = await createVariable(PROJECT, { key: ' DEPLOY_TOKEN ', value: SECRET, masked: true, environmentScope: ' production ' });

    // Assert
    const [project, put, count] = transaction();
    expect(project.ConditionCheck).toMatchObject({ Key: { PK: 'PROJECT#7', SK: 'PROJECT' } });
    expect(put.Put).toMatchObject({ TableName: TABLE, ConditionExpression: 'attribute_not_exists(PK)' });
    const item = put.Put!.Item!;
    expect(item).toMatchObject({ PK: 'CI_VARIABLES#7', SK: 'VARIABLE#DEPLOY_TOKEN#production', type: 'CiVariable', projectId: 7, key: 'DEPLOY_TOKEN', environmentScope: 'production', masked: true });
    expect(item).not.toHaveProperty('value');
    expect(item).not.toHaveProperty('owner');
    expect(item.valueSealed).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(everythingSent()).not.toContain(SECRET);
    expect(await openSecret(item.valueSealed as string)).toBe(SECRET);
    expect(count.Update).toMatchObject({
      Key: { PK: 'CI_VARIABLES#7', SK: 'COUNT' },
      UpdateExpression: 'ADD variableCount :by',
      ConditionExpression: 'attribute_not_exists(variableCount) OR variableCount < :limit',
      ExpressionAttributeValues: { ':by': 1, ':limit': PROJECT_VARIABLES_LIMIT },
    });
    expect(variable).toMatchObject({ key: 'DEPLOY_TOKEN', value: SECRET, environmentScope: 'production', hidden: false });
  });

  it.each([
    ['a taken (key, scope)', ['None', 'ConditionalCheckFailed', 'None'], new ValidationError({ key: ['(DEPLOY_TOKEN) has already been taken'] })],
    ['the limit reached', ['None', 'None', 'ConditionalCheckFailed'], new ValidationError({ base: [`Maximum number of project ci variables (${PROJECT_VARIABLES_LIMIT}) exceeded`] })],
    ['a project gone', ['ConditionalCheckFailed', 'None', 'None'], new NotFoundError('Project')],
  ])('answers %s as GitLab does', async (_case, codes, error) => {
    // Arrange
    ddb.on(TransactWriteCommand).rejects(cancelled(codes));
    // Act / Assert
    await expect(createVariable(PROJECT, { key: 'DEPLOY_TOKEN', value: SECRET })).rejects.toThrow(error);
  });

  it('seals a new value on an edit, and keeps the sealed one when none is given', async () => {
    // Arrange
    const variable = await stored();

    // Act
    await editVariable(variable, { value: SECRET });
    const [put] = transaction();
    ddb.resetHistory();
    await editVariable(variable, { description: 'kept value' });

    // Assert
    expect(put.Put!.ConditionExpression).toBe('attribute_exists(PK)');
    expect(put.Put!.Item!.valueSealed).not.toBe(variable.valueSealed);
    expect(await openSecret(put.Put!.Item!.valueSealed as string)).toBe(SECRET);
    expect(transaction()[0].Put!.Item).toMatchObject({ valueSealed: variable.valueSealed, description: 'kept value' });
    expect(everythingSent()).not.toContain(SECRET);
  });

  it('moves a variable to a new scope in one transaction, refused when the key is there already', async () => {
    // Arrange
    const variable = await stored();

    // Act
    await editVariable(variable, { environmentScope: 'staging' });

    // Assert
    const [removed, put] = transaction();
    expect(removed.Delete).toMatchObject({ Key: { PK: 'CI_VARIABLES#7', SK: 'VARIABLE#DEPLOY_TOKEN#*' }, ConditionExpression: 'attribute_exists(PK)' });
    expect(put.Put).toMatchObject({ Item: { SK: 'VARIABLE#DEPLOY_TOKEN#staging' }, ConditionExpression: 'attribute_not_exists(PK)' });
    ddb.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed']));
    await expect(editVariable(variable, { environmentScope: 'staging' })).rejects.toThrow(new ValidationError({ key: ['(DEPLOY_TOKEN) has already been taken'] }));
  });

  it('deletes a variable and counts it out together; 404 when it was gone', async () => {
    // Arrange
    const variable = await stored();

    // Act
    await removeVariable(variable);

    // Assert
    const [removed, count] = transaction();
    expect(removed.Delete).toMatchObject({ Key: { PK: 'CI_VARIABLES#7', SK: 'VARIABLE#DEPLOY_TOKEN#*' }, ConditionExpression: 'attribute_exists(PK)' });
    expect(count.Update).toMatchObject({ Key: { PK: 'CI_VARIABLES#7', SK: 'COUNT' }, ExpressionAttributeValues: { ':by': -1 } });
    ddb.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None']));
    await expect(removeVariable(variable)).rejects.toThrow(new NotFoundError('Variable'));
  });

  it('creates a group’s variable in the group’s partition, conditioned on the group being live, under the group limit', async () => {
    // Act
    const variable = await createVariable(GROUP, { key: 'DEPLOY_TOKEN', value: SECRET });

    // Assert
    const [group, put, count] = transaction();
    expect(group.ConditionCheck).toMatchObject({ Key: { PK: 'NAMESPACE#7' }, ConditionExpression: expect.stringContaining('attribute_not_exists(deleting)') });
    expect(put.Put!.Item).toMatchObject({ PK: 'CI_GROUP_VARIABLES#7', SK: 'VARIABLE#DEPLOY_TOKEN#*', groupId: 7 });
    expect(put.Put!.Item).not.toHaveProperty('projectId');
    expect(count.Update).toMatchObject({ Key: { PK: 'CI_GROUP_VARIABLES#7', SK: 'COUNT' }, ExpressionAttributeValues: { ':by': 1, ':limit': GROUP_VARIABLES_LIMIT } });
    expect(variable.owner).toEqual(GROUP);
  });

  it.each([
    ['the limit reached', ['None', 'None', 'ConditionalCheckFailed'], new ValidationError({ base: [`Maximum number of group ci variables (${GROUP_VARIABLES_LIMIT}) exceeded`] })],
    ['a group gone or being deleted', ['ConditionalCheckFailed', 'None', 'None'], new NotFoundError('Group')],
  ])('answers a group’s %s as GitLab does', async (_case, codes, error) => {
    // Arrange
    ddb.on(TransactWriteCommand).rejects(cancelled(codes));
    // Act / Assert
    await expect(createVariable(GROUP, { key: 'DEPLOY_TOKEN', value: SECRET })).rejects.toThrow(error);
  });

  it('edits and deletes a group’s variable in the group’s partition; 404 GroupVariable when it was gone', async () => {
    // Arrange
    const variable = await stored({ owner: GROUP });

    // Act
    await editVariable(variable, { environmentScope: 'staging' });
    const [moved, put] = transaction();
    ddb.resetHistory();
    await removeVariable(variable);
    const [removed, count] = transaction();

    // Assert
    expect(moved.Delete).toMatchObject({ Key: { PK: 'CI_GROUP_VARIABLES#7', SK: 'VARIABLE#DEPLOY_TOKEN#*' } });
    expect(put.Put!.Item).toMatchObject({ PK: 'CI_GROUP_VARIABLES#7', SK: 'VARIABLE#DEPLOY_TOKEN#staging', groupId: 7 });
    expect(removed.Delete).toMatchObject({ Key: { PK: 'CI_GROUP_VARIABLES#7', SK: 'VARIABLE#DEPLOY_TOKEN#*' } });
    expect(count.Update).toMatchObject({ Key: { PK: 'CI_GROUP_VARIABLES#7', SK: 'COUNT' } });
    ddb.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None']));
    await expect(removeVariable(variable)).rejects.toThrow(new NotFoundError('GroupVariable'));
  });
});
