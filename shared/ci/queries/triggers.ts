/**
 * Reads of pipeline trigger tokens: a project's list, one by id (GitLab's `triggers.find`: a
 * missing one is `404 Not found`), the token as the caller may see it, and who a token presented to
 * `POST …/trigger/pipeline` acts as.
 */
import { openSecret } from '../../platform/crypto/secret-box';
import { RecordNotFoundError } from '../../platform/http/errors';
import type { CollectionSource } from '../../platform/http/pagination';
import { getUser, type User } from '../../users';
import { jobTokenGitAccess } from '../commands/job-tokens';
import { digestOf } from '../commands/runners';
import { isId } from '../../platform/dynamo/query';
import { ciCollections } from '../store/keys';
import { getTrigger, TRIGGER_TOKEN_PREFIX, triggerByDigest, triggerFromItem, type Trigger } from '../store/triggers';

/** A project's trigger tokens, oldest first (GitLab lists them by id). */
export function triggerList(projectId: number): CollectionSource<Trigger> {
  return { collection: ciCollections.triggers(projectId), ascending: true, select: triggerFromItem };
}

/** The project's trigger of that id; GitLab's `404 Not found` (`ActiveRecord::RecordNotFound`) otherwise. */
export async function findTriggerOrNotFound(projectId: number, triggerId: number): Promise<Trigger> {
  const trigger = isId(triggerId) ? await getTrigger(projectId, triggerId) : undefined;
  if (!trigger) throw new RecordNotFoundError();
  return trigger;
}

/**
 * The token as a caller sees it (GitLab's `Ci::TriggerPresenter#token`): whole for whom `exposed`
 * (its owner, `admin_trigger`), else its first 4 characters after the prefix (`short_token`).
 */
export async function shownToken(trigger: Trigger, exposed: boolean): Promise<string> {
  const token = await openSecret(trigger.tokenSealed);
  return exposed ? token : token.slice(TRIGGER_TOKEN_PREFIX.length, TRIGGER_TOKEN_PREFIX.length + 4);
}

/** Who a token presented to `POST …/trigger/pipeline` creates the pipeline as. */
export type Triggerer =
  | { kind: 'trigger'; trigger: Trigger; user: User }
  /** A running job's token (GitLab's `create_pipeline_from_job`): its user, from its project. */
  | { kind: 'job'; projectId: number; user: User };

/**
 * The trigger whose token this is (not expired), with its owner; else the running job whose token
 * it is, with its user; undefined when neither (or the user is gone). Each is one GetItem by the
 * token's digest (a trigger's then its item), read together.
 */
export async function triggererOf(token: string, now = new Date()): Promise<Triggerer | undefined> {
  const [trigger, job] = await Promise.all([triggerByDigest(digestOf(token)), jobTokenGitAccess(token)]);
  if (trigger && (trigger.expiresAt === null || Date.parse(trigger.expiresAt) > now.getTime())) {
    const owner = await getUser(trigger.ownerId);
    return owner && { kind: 'trigger', trigger, user: owner };
  }
  if (job?.userId) {
    const user = await getUser(job.userId);
    return user && { kind: 'job', projectId: job.projectId, user };
  }
  return undefined;
}
