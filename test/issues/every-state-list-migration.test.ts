/**
 * A list of every state (filtered or not) reads its own partition only once the table has it:
 * while the deploy's data migration (`ISSUE_INDEXES_MIGRATION`) is still under way, it reads the
 * lists of each state as before, so no issue written before the deploy goes missing. A mocked
 * table answers, to tell the migration's record present or not.
 */
import { GetCommand, QueryCommand, type GetCommandInput } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { projectIssueStream, type IssueFilters } from '../../shared/issues/queries/issues';
import { ISSUE_INDEXES_MIGRATION, ISSUE_UPDATE_LIST_MIGRATION } from '../../shared/issues/store/issue-index';
import { issueKeys, type IssueOrderBy } from '../../shared/issues/store/keys';
import { byKey } from '../../shared/platform/dynamo/batch';
import { keys } from '../../shared/platform/dynamo/keys';
import { hasRun } from '../../shared/platform/dynamo/migrations';
import type { StreamSource } from '../../shared/platform/http/pagination';
import { useMockedTable } from '../support/mocked-table';
import { projectSubjectRecord } from '../support/records';
import { userRecord } from '../support/user-record';

const mock = useMockedTable('filtered-list-migration-test');

const subject = projectSubjectRecord();
const admin = userRecord({ id: 1, admin: true });
/** What the list read with its project: the label's name claim and the label. */
const read = byKey([
  { ...issueKeys.claims.labelName(5, 'bug'), labelId: 42 },
  { ...issueKeys.label(5, 42), type: 'Label', id: 42, projectId: 5, name: 'bug', color: '#d9534f', openIssuesCount: 3, closedIssuesCount: 2 },
]);

/** The index partitions a list of every state (by default `labels=bug`) queries for its first page. */
async function partitionsQueried(filters: IssueFilters = { labels: ['bug'] }, orderBy: IssueOrderBy = 'created_at'): Promise<string[]> {
  mock.resetHistory();
  const stream = (await projectIssueStream(subject, admin, filters, { orderBy, ascending: false }, read)) as StreamSource<unknown>;
  for await (const entry of stream.read(undefined, 20)) void entry;
  return mock.commandCalls(QueryCommand).map(({ args: [{ input }] }) => `${input.IndexName} ${Object.values(input.ExpressionAttributeValues ?? {})[0]}`);
}

/** Which data migrations the mocked table has a record of. */
const migrationsRecorded = (...names: string[]) =>
  mock
    .on(GetCommand)
    .callsFake((input: GetCommandInput) => (names.some((name) => input.Key?.PK === keys.migration(name).PK) ? { Item: { ...input.Key, type: 'Migration' } } : {}));
const migrationRecorded = (recorded: boolean) => (recorded ? migrationsRecorded(ISSUE_INDEXES_MIGRATION) : migrationsRecorded());

describe('a list of every state across the deploy of its index', () => {
  it('reads the lists of each state while the migration has not run, and its own once it has (then no longer asks)', async () => {
    migrationRecorded(false);
    expect(await partitionsQueried()).toEqual(['GSI1 ISSUE_LIST#5#label:42#opened', 'GSI1 ISSUE_LIST#5#label:42#closed']);
    expect(await partitionsQueried({})).toEqual(['GSI1 PROJECT_ISSUES#5#opened', 'GSI1 PROJECT_ISSUES#5#closed']);
    expect(await hasRun(ISSUE_INDEXES_MIGRATION)).toBe(false);

    migrationRecorded(true);
    expect(await partitionsQueried()).toEqual(['GSI2 ISSUE_LIST#5#label:42']);
    expect(await partitionsQueried({})).toEqual(['GSI7 PROJECT_ISSUES#5#all']);
    // By update, a list of every state merges the states' until its own migration has run.
    expect(await partitionsQueried({}, 'updated_at')).toEqual(['GSI4 PROJECT_ISSUES#5#opened', 'GSI4 PROJECT_ISSUES#5#closed']);
    // A state asked for reads its own list.
    expect(await partitionsQueried({ state: 'closed' })).toEqual(['GSI1 PROJECT_ISSUES#5#closed']);

    migrationRecorded(false); // a migration never un-runs: what was seen is remembered
    expect(await partitionsQueried()).toEqual(['GSI2 ISSUE_LIST#5#label:42']);
    expect(await partitionsQueried({})).toEqual(['GSI7 PROJECT_ISSUES#5#all']);
    expect(mock.commandCalls(GetCommand)).toHaveLength(0);
  });

  it('reads the list of every state by update once its own migration has run', async () => {
    migrationsRecorded(ISSUE_INDEXES_MIGRATION);
    expect(await partitionsQueried({}, 'updated_at')).toEqual(['GSI4 PROJECT_ISSUES#5#opened', 'GSI4 PROJECT_ISSUES#5#closed']);
    migrationsRecorded(ISSUE_INDEXES_MIGRATION, ISSUE_UPDATE_LIST_MIGRATION);
    expect(await partitionsQueried({}, 'updated_at')).toEqual(['GSI8 PROJECT_ISSUES#5#all']);
    expect(await partitionsQueried({ state: 'opened' }, 'updated_at')).toEqual(['GSI4 PROJECT_ISSUES#5#opened']);
    expect(await partitionsQueried({}, 'created_at')).toEqual(['GSI7 PROJECT_ISSUES#5#all']);
  });
});
