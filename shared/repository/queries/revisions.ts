/**
 * Revisions as GitLab's API takes them (`ref`, `ref_name`, `sha`, `from`, `to`): a full or
 * abbreviated object id, a branch or tag name, a full ref name, `HEAD`, optionally followed by
 * `~n` and `^n` steps, resolved as git's `rev-parse` does (gitrevisions(7): a full id first, then
 * `refs/<name>`, `refs/tags/<name>`, `refs/heads/<name>`, then an abbreviated id).
 */
import type { Project } from '../../projects';
import type { Ref } from '../store/refs';
import { FULL_OID, type CommitObject, type ObjectReader } from './objects';

export const BRANCH_PREFIX = 'refs/heads/';
export const TAG_PREFIX = 'refs/tags/';

const ABBREVIATED = /^[0-9a-fA-F]{4,39}$/;

/** The ref a short name stands for, in git's order of precedence. */
async function dwimRef(reader: ObjectReader, name: string): Promise<Ref | undefined> {
  const repository = reader.repository;
  const candidates = name.startsWith('refs/') ? [name] : [`refs/${name}`, `${TAG_PREFIX}${name}`, `${BRANCH_PREFIX}${name}`];
  for (const candidate of candidates) {
    const ref = await repository.ref(candidate);
    if (ref) return ref;
  }
  return undefined;
}

/** The object a base revision (no `~`/`^` steps) names, or `undefined`. */
async function resolveBase(reader: ObjectReader, project: Project, name: string): Promise<string | undefined> {
  if (FULL_OID.test(name)) return name.toLowerCase();
  if (name === 'HEAD') return (await reader.repository.ref(`${BRANCH_PREFIX}${project.defaultBranch}`))?.oid;
  const ref = await dwimRef(reader, name);
  if (ref) return ref.oid;
  if (ABBREVIATED.test(name)) {
    const ids = await reader.idsStartingWith(name.toLowerCase());
    if (ids.length === 1) return ids[0];
  }
  return undefined;
}

/**
 * The object id a revision names (`main`, `v1.0`, `a1b2c3d`, `HEAD~2`, `main^2`), peeling tags
 * where a step needs a commit; `undefined` when it names nothing.
 */
export async function resolveRevision(reader: ObjectReader, project: Project, revision: string): Promise<string | undefined> {
  const text = revision.trim();
  if (text === '' || text.startsWith('-') || text.includes('..') || /[\s:?*[\\\0]/.test(text)) return undefined;
  const stepsAt = text.search(/[~^]/);
  const base = stepsAt < 0 ? text : text.slice(0, stepsAt);
  let oid = base === '' ? undefined : await resolveBase(reader, project, base);
  if (oid === undefined || stepsAt < 0) return oid;
  const steps = text.slice(stepsAt);
  const pattern = /~(\d*)|\^\{(\w*)\}|\^(\d*)/y;
  for (let at = 0; at < steps.length; ) {
    pattern.lastIndex = at;
    const match = pattern.exec(steps);
    if (!match) return undefined;
    at = pattern.lastIndex;
    if (match[2] !== undefined) {
      // ^{}, ^{commit}, ^{tree}
      const peeled = await reader.peel(oid);
      if (!peeled) return undefined;
      if (match[2] === '') oid = peeled.id;
      else if (match[2] === 'commit' && peeled.type === 'commit') oid = peeled.id;
      else if (match[2] === 'tree' && peeled.type === 'commit') oid = (await reader.commit(peeled.id))!.tree;
      else if (match[2] === 'tree' && peeled.type === 'tree') oid = peeled.id;
      else return undefined;
      continue;
    }
    const commit = await reader.peelToCommit(oid);
    if (!commit) return undefined;
    if (match[1] !== undefined) {
      // ~n: the n-th first-parent ancestor.
      let current: CommitObject | undefined = commit;
      for (let n = match[1] === '' ? 1 : Number(match[1]); n > 0 && current; n--) {
        current = current.parents[0] ? await reader.commit(current.parents[0]) : undefined;
      }
      if (!current) return undefined;
      oid = current.id;
    } else {
      // ^n: the n-th parent (^0: the commit itself).
      const n = match[3] === '' ? 1 : Number(match[3]);
      if (n === 0) oid = commit.id;
      else if (commit.parents[n - 1]) oid = commit.parents[n - 1];
      else return undefined;
    }
  }
  return oid;
}

/** The commit a revision leads to (through annotated tags), or `undefined`. */
export async function resolveCommit(reader: ObjectReader, project: Project, revision: string): Promise<CommitObject | undefined> {
  const oid = await resolveRevision(reader, project, revision);
  return oid === undefined ? undefined : reader.peelToCommit(oid);
}
