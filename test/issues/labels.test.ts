import { BatchGetCommand, BatchWriteCommand, GetCommand, TransactWriteCommand, UpdateCommand, type BatchGetCommandInput } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { issueKeys } from '../../shared/issues/store/keys';
import { projectKeys } from '../../shared/projects/store/keys';
import type { Label } from '../../shared/issues/store/labels';
import type { Project } from '../../shared/projects/store/projects';
import { DEFAULT_LABEL_COLOR, ensureLabels } from '../../shared/issues/commands/labels';
import { normalizeColor, textColorFor } from '../../shared/issues/label-colors';
import { NotFoundError, ValidationError } from '../../shared/platform/http/errors';
import { cancelled, useMockedTable } from '../support/mocked-table';
import { idsEndAt } from '../support/ids';

const TABLE = 'labels-domain-test';
const PROJECT_ID = 7;
const project = { id: PROJECT_ID } as Project;
const ddbMock = useMockedTable(TABLE);

function storedLabel(overrides: Partial<Label> = {}): Label {
  return {
    id: 42,
    projectId: PROJECT_ID,
    name: 'bug',
    color: '#d9534f',
    description: null,
    priority: null,
    openIssuesCount: 0,
    closedIssuesCount: 0,
    openMergeRequestsCount: 0,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    version: 1,
    ...overrides,
  };
}

/** Internal: the item DynamoDB would hold for `label`. */
const labelItem = (label: Label) => ({ ...issueKeys.label(label.projectId, label.id), type: 'Label', ...label });


/** Answers BatchGetItem with those of `items` whose keys are asked for. */
const batchHolds = (...items: Array<Record<string, unknown>>) =>
  ddbMock.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => {
    const asked = input.RequestItems![TABLE].Keys ?? [];
    return { Responses: { [TABLE]: items.filter((item) => asked.some((key) => key.PK === item.PK && key.SK === item.SK)) } };
  });

beforeEach(() => {
  ddbMock.reset();
  ddbMock.on(GetCommand).resolves({}); // nothing exists unless a test says so
  batchHolds();
  ddbMock.on(BatchWriteCommand).resolves({}); // search entries
  ddbMock.on(UpdateCommand).callsFake(idsEndAt(43)); // nextId('labels')
  ddbMock.on(TransactWriteCommand).resolves({});
});

describe('ensureLabels', () => {
  it('returns an existing label without writing', async () => {
    // Prepare
    const existing = storedLabel();
    batchHolds({ ...issueKeys.claims.labelName(PROJECT_ID, 'BUG'), labelId: 42 }, labelItem(existing));
    // Act
    const labels = await ensureLabels(project, ['BUG']);
    // Assess: the name claims, then the labels, one batch read each.
    expect(labels).toEqual([existing]);
    expect(ddbMock.commandCalls(BatchGetCommand)).toHaveLength(2);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it("creates a missing label with GitLab's default colour, with its name claim, while the project is live", async () => {
    // Act
    const [label] = await ensureLabels(project, ['  needs review ']);

    // Assess
    expect(label).toMatchObject({ id: 43, projectId: PROJECT_ID, name: 'needs review', color: DEFAULT_LABEL_COLOR, description: null, priority: null });
    const items = ddbMock.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems!;
    expect(items).toHaveLength(3);
    expect(items[0].ConditionCheck).toMatchObject({ Key: projectKeys.project(PROJECT_ID), ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleting)' });
    expect(items[1].Put).toMatchObject({ Item: { ...issueKeys.label(PROJECT_ID, 43), name: 'needs review' }, ConditionExpression: 'attribute_not_exists(PK)' });
    expect(items[2].Put).toMatchObject({ Item: { ...issueKeys.claims.labelName(PROJECT_ID, 'Needs Review'), labelId: 43 }, ConditionExpression: 'attribute_not_exists(PK)' });
  });

  it('returns the label a concurrent caller created when the name claim is taken between the read and the write', async () => {
    // Prepare: no claim at the first read; the claim write fails; the second read finds the winner's label.
    const winner = storedLabel({ id: 40, name: 'Race' });
    ddbMock
      .on(GetCommand, { Key: issueKeys.claims.labelName(PROJECT_ID, 'race') })
      .resolvesOnce({})
      .resolves({ Item: { labelId: 40 } });
    ddbMock.on(GetCommand, { Key: issueKeys.label(PROJECT_ID, 40) }).resolves({ Item: labelItem(winner) });
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['None', 'None', 'ConditionalCheckFailed']));

    // Act
    const labels = await ensureLabels(project, ['race']);

    // Assess
    expect(labels).toEqual([winner]);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('asks for each name once, matching names case-insensitively, in the order first named', async () => {
    // Prepare: every claim written succeeds, ids 43 then 44.
    ddbMock.on(UpdateCommand).callsFakeOnce(idsEndAt(43)).callsFake(idsEndAt(44));
    // Act
    const labels = await ensureLabels(project, ['Bug', 'bug', 'Feature', 'BUG']);
    // Assess
    expect(labels.map((l) => l.name)).toEqual(['Bug', 'Feature']);
    expect(new Set(labels.map((l) => l.id)).size).toBe(2);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it.each([[''], ['a,b'], ['x'.repeat(256)]])('refuses the name %j with a validation error and writes nothing', async (name) => {
    await expect(ensureLabels(project, ['ok', name])).rejects.toBeInstanceOf(ValidationError);
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers 404 Project Not Found when the project is gone', async () => {
    ddbMock.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None', 'None']));
    await expect(ensureLabels(project, ['late'])).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('label colours', () => {
  it.each([
    ['red', '#FF0000'],
    [' RebeccaPurple ', '#663399'],
    ['#AbC', '#AbC'],
    ['#a1b2c3', '#a1b2c3'],
    ['#abcd', undefined],
    ['abc', undefined],
    ['', undefined],
  ])('normalizes %j to %s', (color, expected) => {
    expect(normalizeColor(color)).toBe(expected);
  });

  it.each([
    ['#FFFFFF', '#333333'],
    ['#fff', '#333333'],
    ['#6699cc', '#FFFFFF'],
    ['#000', '#FFFFFF'],
    ['#A0A0A0', '#FFFFFF'], // 160 * 3 = 480, not above 500: white text
    ['#AAAAAA', '#333333'], // 170 * 3 = 510
  ])('gives %s the text colour %s', (color, text) => {
    expect(textColorFor(color)).toBe(text);
  });
});
