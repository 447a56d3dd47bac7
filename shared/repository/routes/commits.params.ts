/**
 * Parameters of the commits routes, with Grape's messages: `actions[0][file_path] is missing`,
 * `actions[1][action] does not have a valid value`, `start_branch, start_sha are mutually exclusive`.
 */
import * as z from 'zod';
import { p, required } from '../../platform/http/params';
import type { CommitAction } from '../commands/commits';

/** `:sha` of `/commits/:sha`: a commit id, or a branch or tag name (URL-encoded). */
export const shaParam = { sha: required(p.string()) };

/** Grape's `DateTime`: an ISO 8601 date or time; answers seconds since the epoch. */
export const dateTimeParam = (name: string) =>
  p.string().transform((value, ctx) => {
    if (value === undefined) return undefined;
    const time = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value.trim()) ? `${value.trim()}T00:00:00Z` : value.trim());
    if (Number.isNaN(time)) {
      ctx.addIssue({ code: 'custom', message: `${name} is invalid` });
      return z.NEVER;
    }
    return Math.floor(time / 1000);
  });

export const commitListParams = {
  ref_name: p.string(),
  since: dateTimeParam('since'),
  until: dateTimeParam('until'),
  path: p.string(),
  author: p.string(),
  all: p.bool(),
  with_stats: p.bool(),
  first_parent: p.bool(),
  order: p.oneOf(['default', 'topo']),
  trailers: p.bool(),
};

/**
 * `branch` and `dry_run` of a cherry-pick or a revert: Grape's `allow_blank: false` answers
 * `branch is empty` for a blank name.
 */
export const commitChangeParams = {
  branch: z.unknown().transform((value, ctx): string => {
    const problem =
      value === undefined || value === null ? 'missing' : typeof value !== 'string' && typeof value !== 'number' ? 'invalid' : String(value).trim() === '' ? 'empty' : undefined;
    if (!problem) return String(value);
    ctx.addIssue({ code: 'custom', message: `branch is ${problem}` });
    return z.NEVER;
  }),
  dry_run: p.bool(),
};

const ACTIONS = ['create', 'update', 'move', 'delete', 'chmod'] as const;
const TRUE_VALUES = new Set([true, 'true', '1', 1, 't', 'yes']);
const FALSE_VALUES = new Set([false, 'false', '0', 0, 'f', 'no']);

const text = (value: unknown): string | undefined =>
  value === undefined || value === null ? undefined : typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;

/**
 * `actions`: an array of `{action, file_path, previous_path, content, encoding, last_commit_id,
 * execute_filemode}` checked as GitLab's nested parameters are.
 */
export const actionsParam = z.unknown().transform((value, ctx): CommitAction[] => {
  if (value === undefined || value === null || value === '') {
    ctx.addIssue({ code: 'custom', message: 'actions is missing' });
    return z.NEVER;
  }
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'object' || item === null || Array.isArray(item))) {
    ctx.addIssue({ code: 'custom', message: 'actions is invalid' });
    return z.NEVER;
  }
  if (value.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'actions is empty' });
    return z.NEVER;
  }
  const actions: CommitAction[] = [];
  const issue = (message: string) => ctx.addIssue({ code: 'custom', message });
  value.forEach((raw: Record<string, unknown>, i) => {
    const name = (field: string) => `actions[${i}][${field}]`;
    const action = text(raw.action);
    const filePath = text(raw.file_path);
    if (action === undefined || action === '') issue(`${name('action')} is missing`);
    else if (!(ACTIONS as readonly string[]).includes(action)) issue(`${name('action')} does not have a valid value`);
    if (filePath === undefined || filePath.trim() === '') issue(`${name('file_path')} is missing`);
    const encoding = raw.encoding === undefined || raw.encoding === null ? 'text' : text(raw.encoding);
    if (encoding !== 'text' && encoding !== 'base64') issue(`${name('encoding')} does not have a valid value`);
    const previousPath = text(raw.previous_path);
    if (action === 'move' && (previousPath === undefined || previousPath === '')) issue(`${name('previous_path')} is missing`);
    const content = raw.content === undefined || raw.content === null ? undefined : text(raw.content);
    if (action === 'update' && content === undefined) issue(`${name('content')} is missing`);
    let executeFilemode: boolean | undefined;
    if (raw.execute_filemode !== undefined && raw.execute_filemode !== null && raw.execute_filemode !== '') {
      if (TRUE_VALUES.has(raw.execute_filemode as never)) executeFilemode = true;
      else if (FALSE_VALUES.has(raw.execute_filemode as never)) executeFilemode = false;
      else issue(`${name('execute_filemode')} is invalid`);
    } else if (action === 'chmod') {
      issue(`${name('execute_filemode')} is missing`);
    }
    actions.push({
      action: action as CommitAction['action'],
      filePath: filePath ?? '',
      previousPath: action === 'move' ? previousPath : undefined,
      content: action === 'delete' || action === 'chmod' ? undefined : content,
      encoding: encoding === 'base64' ? 'base64' : 'text',
      lastCommitId: ['update', 'move', 'delete'].includes(action ?? '') ? text(raw.last_commit_id) || undefined : undefined,
      executeFilemode,
    });
  });
  return actions;
});

export const commitCreateParams = {
  branch: required(p.string()),
  commit_message: required(p.string()),
  actions: actionsParam,
  start_branch: p.string(),
  start_sha: p.string(),
  author_email: p.string(),
  author_name: p.string(),
  stats: p.bool(),
};

/** Grape's `mutually_exclusive :start_branch, :start_sha`. */
export function startMutuallyExclusive(value: { start_branch?: string; start_sha?: string }, ctx: z.RefinementCtx) {
  if (value.start_branch !== undefined && value.start_sha !== undefined) {
    ctx.addIssue({ code: 'custom', message: 'start_branch, start_sha are mutually exclusive' });
  }
}

export const commitRefsParams = {
  type: p.oneOf(['branch', 'tag', 'all']),
};
