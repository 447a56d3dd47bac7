/**
 * The data migrations of this version, run in order by the bootstrap on every deploy (and by the
 * local runtime at start); each runs once per table (`runOnce`): search and list entries,
 * counts and discussion threads for items written before they existed.
 */
import { indexProjectAwardUsers, indexProjectNoteAuthors, indexProjectNoteThreads, reindexProjectIssues } from '../../shared/issues';
import { backfillGroupSearchEntries } from '../../shared/namespaces';
import { runOnce } from '../../shared/platform/dynamo/migrations';
import { logger } from '../../shared/platform/logger';
import { allProjectIds, backfillProjectSearchEntries } from '../../shared/projects';
import { backfillUserSearchEntries } from '../../shared/users';

const MIGRATIONS: Array<[string, () => Promise<number>]> = [
  ['search-entries-v1-users', backfillUserSearchEntries],
  ['search-entries-v1-projects', backfillProjectSearchEntries],
  ['search-entries-v1-groups', backfillGroupSearchEntries],
  [
    'issue-indexes-v1',
    async () => {
      let issues = 0;
      for await (const projectId of allProjectIds()) issues += await reindexProjectIssues(projectId);
      return issues;
    },
  ],
  [
    'note-threads-v1',
    async () => {
      let notes = 0;
      for await (const projectId of allProjectIds()) notes += await indexProjectNoteThreads(projectId);
      return notes;
    },
  ],
  [
    'note-authors-v1',
    async () => {
      let notes = 0;
      for await (const projectId of allProjectIds()) notes += await indexProjectNoteAuthors(projectId);
      return notes;
    },
  ],
  // System notes joined the author index (a user deleted with `hard_delete` takes them too).
  [
    'note-authors-v2',
    async () => {
      let notes = 0;
      for await (const projectId of allProjectIds()) notes += await indexProjectNoteAuthors(projectId);
      return notes;
    },
  ],
  [
    'award-users-v1',
    async () => {
      let awards = 0;
      for await (const projectId of allProjectIds()) awards += await indexProjectAwardUsers(projectId);
      return awards;
    },
  ],
];

export async function runMigrations(): Promise<void> {
  for (const [name, step] of MIGRATIONS) {
    const started = Date.now();
    const count = await runOnce(name, step);
    if (count !== undefined) logger.info('migration ran', { migration: name, items: count, ms: Date.now() - started });
  }
}
