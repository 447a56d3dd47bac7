/**
 * The data migrations of this version, run in order by the bootstrap on every deploy (and by the
 * local runtime at start); each runs once per table (`runOnce`): search and list entries,
 * counts and discussion threads for items written before they existed.
 */
import {
  indexProjectAwardUsers,
  indexProjectNoteAuthors,
  indexProjectNoteThreads,
  ISSUE_INDEXES_MIGRATION,
  ISSUE_UPDATE_LIST_MIGRATION,
  listIssuesInEveryState,
  reindexProjectIssues,
} from '../../shared/issues';
import { backfillGroupSearchEntries } from '../../shared/namespaces';
import { runOnce } from '../../shared/platform/dynamo/migrations';
import { logger } from '../../shared/platform/logger';
import { allProjectIds, backfillProjectSearchEntries } from '../../shared/projects';
import { backfillUserSearchEntries } from '../../shared/users';

/** A step run on every project in turn; the items it changed, summed. */
const eachProject = (step: (projectId: number) => Promise<number>) => async (): Promise<number> => {
  let items = 0;
  for await (const projectId of allProjectIds()) items += await step(projectId);
  return items;
};

const MIGRATIONS: Array<[string, () => Promise<number>]> = [
  ['search-entries-v1-users', backfillUserSearchEntries],
  ['search-entries-v1-projects', backfillProjectSearchEntries],
  ['search-entries-v1-groups', backfillGroupSearchEntries],
  // v2: a filtered list's entries are also in the list of every state (GSI2); v3: every issue is
  // in its project's list of every state (GSI7). It rewrites every entry and recounts, so the
  // earlier versions are no longer run.
  [ISSUE_INDEXES_MIGRATION, eachProject(reindexProjectIssues)],
  // Every issue in its project's list of every state by update (GSI8, the index of the next deploy
  // after GSI7's): one UpdateItem per issue written before it, not a rebuild.
  [ISSUE_UPDATE_LIST_MIGRATION, eachProject(listIssuesInEveryState)],
  ['note-threads-v1', eachProject(indexProjectNoteThreads)],
  // v2: system notes joined the author index (a user deleted with `hard_delete` takes them too);
  // it indexes every note, so v1 (user notes only) is no longer run.
  ['note-authors-v2', eachProject(indexProjectNoteAuthors)],
  ['award-users-v1', eachProject(indexProjectAwardUsers)],
];

export async function runMigrations(): Promise<void> {
  for (const [name, step] of MIGRATIONS) {
    const started = Date.now();
    const count = await runOnce(name, step);
    if (count !== undefined) logger.info('migration ran', { migration: name, items: count, ms: Date.now() - started });
  }
}
