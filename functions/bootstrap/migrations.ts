/**
 * The data migrations of this version, run in order by the bootstrap on every deploy (and by the
 * local runtime at start); each runs once per table (`runOnce`): search and list entries,
 * counts and discussion threads for items written before they existed. A run stops when its
 * invocation's time is nearly up; the jobs worker then goes on where it stopped (`runOnce`).
 */
import { createHash } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { CI_STOPPING_ENVIRONMENTS_MIGRATION, indexStoppingEnvironments } from '../../shared/ci/commands/environments';
import { CI_PIPELINE_SHAS_MIGRATION, CI_REFS_MIGRATION, indexProjectPipelineShas, indexProjectRefs } from '../../shared/ci/commands/refs';
import {
  indexProjectAwardUsers,
  indexProjectNoteAuthors,
  indexProjectNoteThreads,
  ISSUE_INDEXES_MIGRATION,
  ISSUE_UPDATE_LIST_MIGRATION,
  listIssuesInEveryState,
  reindexProjectIssues,
} from '../../shared/issues';
import { indexDeployKeyFingerprints } from '../../shared/deploy-keys';
import { linkProjectMergeRequestCommits, MR_COMMIT_LINKS_MIGRATION } from '../../shared/merge-requests';
import { backfillGroupSearchEntries } from '../../shared/namespaces';
import { eachInIdOrder, runOnce, type MigrationOptions, type MigrationStep } from '../../shared/platform/dynamo/migrations';
import { enqueueJob, type Job } from '../../shared/platform/jobs';
import { logger } from '../../shared/platform/logger';
import { allProjectIds, backfillProjectSearchEntries, indexProjectContributions, indexProjectStarrers } from '../../shared/projects';
import { backfillUserSearchEntries } from '../../shared/users';

/** A step run on every project in turn, in id order, resumed after the last project a stopped run finished. */
export const eachProject = (step: (projectId: number) => Promise<number>): MigrationStep => eachInIdOrder(allProjectIds, (id) => id, step);

const MIGRATIONS: Array<[string, MigrationStep]> = [
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
  // Each ref's latest successful pipeline (artifacts by ref, the artifacts kept) for pipelines that succeeded before it was kept.
  [CI_REFS_MIGRATION, eachProject(indexProjectRefs)],
  // A commit's pipelines (GSI5) for those written before that index (the commit statuses API).
  [CI_PIPELINE_SHAS_MIGRATION, eachProject(indexProjectPipelineShas)],
  // The commits of merge requests recorded before a commit's merge requests were kept (`GET …/commits/:sha/merge_requests`).
  [MR_COMMIT_LINKS_MIGRATION, eachProject(linkProjectMergeRequestCommits)],
  // Environments left `stopping` before the scheduler's due index covered them (only transitions write it): given their entry.
  [CI_STOPPING_ENVIRONMENTS_MIGRATION, eachProject(indexStoppingEnvironments)],
  // Deploy keys written before their MD5 fingerprint was indexed (GSI3: `GET /keys?fingerprint=aa:bb:…`).
  ['deploy-key-md5-v1', indexDeployKeyFingerprints],
  // A project's starrers (GSI2 of the star items) for stars given before that index.
  ['project-starrers-v1', eachProject(indexProjectStarrers)],
  // The projects a user contributed to (one entry per user and project), from the last year of each project's feed.
  ['contributed-projects-v1', eachProject(indexProjectContributions)],
];

/** The names of this version's migrations, in order. */
export const MIGRATION_NAMES = MIGRATIONS.map(([name]) => name);

/** What a run of the migrations came to: all recorded, or one of them unfinished (see `runOnce`). */
export type MigrationsOutcome = 'done' | 'stopped' | 'busy';

/**
 * Runs, in order, the migrations not yet run on the table, until one is unfinished (its time was
 * up, or another run holds it): later ones may rely on it.
 */
export async function runMigrations(options: MigrationOptions = {}): Promise<MigrationsOutcome> {
  for (const [name, step] of MIGRATIONS) {
    const started = Date.now();
    const outcome = await runOnce(name, step, options);
    if (outcome === 'skipped') continue;
    if (outcome === 'stopped' || outcome === 'busy') {
      logger.info('migration unfinished', { migration: name, outcome, ms: Date.now() - started });
      return outcome;
    }
    logger.info('migration ran', { migration: name, items: outcome.ran, ms: Date.now() - started });
  }
  return 'done';
}

/**
 * Whether the invocation has less than `reserveMs` left (never without a context: tests, the local
 * runtime): the time kept back for a migration step under way (one project) to finish.
 */
export const nearlyOver =
  (context: Pick<Context, 'getRemainingTimeInMillis'> | undefined, reserveMs: number) =>
  (): boolean =>
    (context?.getRemainingTimeInMillis?.() ?? Infinity) < reserveMs;

/** The background job that finishes a deploy's migrations (the jobs worker runs it: `functions/jobs`). */
export const MIGRATIONS_JOB = 'data-migrations';

/**
 * The job's target: one per list of migrations (a hash of their names), so a release's job is not
 * taken for an earlier release's one still under way.
 */
export const migrationsJobTarget = (names: readonly string[] = MIGRATION_NAMES): number =>
  createHash('sha256').update(names.join('\n')).digest().readUInt32BE(0) & 0x7fffffff;

/** Hands the migrations to the jobs worker: they go on in the background, a run per invocation. */
export async function continueMigrationsInBackground(): Promise<void> {
  const queued = await enqueueJob(MIGRATIONS_JOB, migrationsJobTarget());
  logger.info('data migrations go on in the background', { job: MIGRATIONS_JOB, queued });
}

/**
 * The migrations job's run: 'continue' when its time was up (the worker queues it again at once);
 * throws, for the sweep to retry it later, when another run holds a migration. The worker runs
 * this release's migrations: the stack updates it before the bootstrap that queues the job runs.
 */
export async function runMigrationsJob(_job: Job, timeUp: () => boolean): Promise<'continue' | undefined> {
  const outcome = await runMigrations({ timeUp });
  if (outcome === 'busy') throw new Error('another run is working on a migration');
  return outcome === 'stopped' ? 'continue' : undefined;
}
