/**
 * Project hooks (webhooks): items in their project's partition (`PROJECT#<id>` / `HOOK#<id>`),
 * listed with the project's other children and deleted with its partition.
 *
 * The secret `token` is stored only sealed (`tokenSealed`, see `platform/crypto/secret-box.ts`):
 * deliveries must send it to the receiver, so it cannot be a digest, and it never lies in the
 * table in clear. This module only keeps the sealed value: the commands seal a new token
 * (`../commands.ts`) and delivery opens it (`../deliver.ts`); nothing here takes a clear one.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../platform/dynamo/client';
import { ifConditionHolds } from '../../platform/dynamo/conditional';
import { nextId } from '../../platform/dynamo/counters';
import { hookCollections, hookKeys } from './keys';
import { projectIsLive } from '../../projects';
import { queryAll, type Item, isId, getEntity } from '../../platform/dynamo/query';
import { ConditionFailed, transact } from '../../platform/dynamo/transactions';
import { entityFields } from '../../platform/dynamo/items';

/** What a client sets on a hook (the response fields, camel-cased), besides its url. */
export interface HookTriggers {
  pushEvents: boolean;
  issuesEvents: boolean;
  /** Events of confidential issues (GitLab keeps them apart so no hook leaks them by default). */
  confidentialIssuesEvents: boolean;
  mergeRequestsEvents: boolean;
  tagPushEvents: boolean;
  noteEvents: boolean;
  /** Comments on confidential issues. */
  confidentialNoteEvents: boolean;
  jobEvents: boolean;
  pipelineEvents: boolean;
  wikiPageEvents: boolean;
  /** Deployments starting and finishing (`Deployment Hook`); absent on hooks stored before it: off. */
  deploymentEvents: boolean;
  enableSslVerification: boolean;
}

export interface HookSettings extends HookTriggers {
  url: string;
}

export interface ProjectHook extends HookSettings {
  id: number;
  projectId: number;
  /** Whether a secret token is set (never presented: the token is write-only). */
  hasToken: boolean;
  /** The secret token, sealed; absent when none is set. */
  tokenSealed?: string;
  createdAt: string;
}

/** GitLab's defaults for a new hook: push events on, SSL verification on, everything else off. */
export const DEFAULT_HOOK_TRIGGERS: HookTriggers = {
  pushEvents: true,
  issuesEvents: false,
  confidentialIssuesEvents: false,
  mergeRequestsEvents: false,
  tagPushEvents: false,
  noteEvents: false,
  confidentialNoteEvents: false,
  jobEvents: false,
  pipelineEvents: false,
  wikiPageEvents: false,
  deploymentEvents: false,
  enableSslVerification: true,
};

/** A change of the stored secret: a new sealed token, `null` to remove it, `undefined` to keep it as it is. */
export type SealedTokenChange = string | null | undefined;

/** Why a write did not happen: the project is gone (or being deleted), or the hook is. */
export type HookGone = 'project_gone' | 'hook_gone';

const hookFromItem = (item: Item): ProjectHook => entityFields(item) as ProjectHook;

function hookToItem(hook: ProjectHook): Item {
  return { ...hookKeys.hook(hook.projectId, hook.id), type: 'ProjectHook', ...hook };
}

/** Internal: `hook` with its sealed token replaced as `change` says, or kept. */
function withToken(hook: ProjectHook, change: SealedTokenChange): ProjectHook {
  if (change === undefined) return hook;
  const { tokenSealed: _replaced, ...rest } = hook;
  return change === null ? { ...rest, hasToken: false } : { ...rest, hasToken: true, tokenSealed: change };
}

/** Every hook of a project, oldest first (a project has few). */
export async function listHooks(projectId: number): Promise<ProjectHook[]> {
  return (await queryAll(hookCollections.projectHooks(projectId))).map(hookFromItem);
}

export async function getHook(projectId: number, hookId: number): Promise<ProjectHook | undefined> {
  if (!isId(hookId)) return undefined;
  return getEntity(hookKeys.hook(projectId, hookId), hookFromItem);
}

/**
 * Adds a hook to a project, with its sealed token if one is given, atomically with a check that
 * the project exists and is not being deleted (else nothing is written).
 *
 * @example
 * const hook = await insertHook(7, { url: 'https://ci.example.com/hook', ...DEFAULT_HOOK_TRIGGERS }, await sealSecret('secret'));
 */
export async function insertHook(projectId: number, settings: HookSettings, tokenSealed: string | undefined): Promise<ProjectHook | 'project_gone'> {
  const hook = withToken(
    { ...settings, id: await nextId('hooks'), projectId, hasToken: false, createdAt: new Date().toISOString() },
    tokenSealed,
  );
  const gone = await writeHook(hook, 'attribute_not_exists(PK)');
  return gone ? 'project_gone' : hook;
}

/**
 * Replaces a hook's settings, and its sealed token as `token` says. Nothing is written when the
 * hook or its project is gone meanwhile: an edit never brings back a deleted hook.
 */
export async function updateHook(hook: ProjectHook, settings: HookSettings, token: SealedTokenChange): Promise<ProjectHook | HookGone> {
  const updated = withToken({ ...hook, ...settings }, token);
  return (await writeHook(updated, 'attribute_exists(PK)')) ?? updated;
}

/** Internal: puts the hook item under `condition`, while its project is live. */
async function writeHook(hook: ProjectHook, condition: string): Promise<HookGone | undefined> {
  try {
    await transact({
      project: projectIsLive(hook.projectId),
      hook: { Put: { TableName: tableName(), Item: hookToItem(hook), ConditionExpression: condition } },
    });
    return undefined;
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    return error.failedOn('project') ? 'project_gone' : 'hook_gone';
  }
}

/** Deletes a hook; returns what was deleted, or `undefined` if there was none. One request. */
export async function deleteHook(projectId: number, hookId: number): Promise<ProjectHook | undefined> {
  if (!isId(hookId)) return undefined;
  // Conditional: deleting a hook that is not there writes nothing.
  const deleted = await ifConditionHolds(
    db().send(new DeleteCommand({ TableName: tableName(), Key: hookKeys.hook(projectId, hookId), ConditionExpression: 'attribute_exists(PK)', ReturnValues: 'ALL_OLD' })),
  );
  return deleted?.Attributes ? hookFromItem(deleted.Attributes) : undefined;
}
