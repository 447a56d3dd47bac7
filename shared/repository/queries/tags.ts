/**
 * Tag reads: a project's tags (GitLab's `TagsFinder`: `search`, ordered by `updated` — the date of
 * the commit a tag leads to —, `name` or `version`, descending by default) and one tag, with what
 * GitLab's `Tag` entity shows: the annotation's message and date, the tag object's or commit's id
 * (`target`), and the commit.
 */
import { NotFoundError } from '../../platform/http/errors';
import type { Ref } from '../store/refs';
import { matchesSearch } from './branches';
import type { CommitObject, ObjectReader, Signature } from './objects';
import { TAG_PREFIX } from './revisions';

export interface TagView {
  name: string;
  /** The annotation's message (`''` for a lightweight tag). */
  message: string;
  /** What the ref holds: the tag object, or the commit of a lightweight tag. */
  target: string;
  /** The commit it leads to, if any. */
  commit: CommitObject | undefined;
  /** The annotation's tagger (its date is `created_at`). */
  tagger: Signature | undefined;
}

const tagName = (ref: Ref) => ref.name.slice(TAG_PREFIX.length);

/** What the `Tag` entity shows of a tag ref. */
export async function tagView(reader: ObjectReader, ref: Ref): Promise<TagView> {
  const annotation = await reader.tag(ref.oid);
  return {
    name: tagName(ref),
    message: annotation?.message ?? '',
    target: ref.oid,
    commit: await reader.peelToCommit(ref.oid),
    tagger: annotation?.tagger,
  };
}

/** git's `version:refname` order, close enough: numbers compared as numbers, the rest as text. */
function compareVersions(a: string, b: string): number {
  const parts = (name: string) => name.split(/(\d+)/).filter((part) => part !== '');
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [p, q] = [x[i], y[i]];
    const numeric = /^\d+$/.test(p) && /^\d+$/.test(q);
    const order = numeric ? Number(p) - Number(q) || p.length - q.length : p < q ? -1 : p > q ? 1 : 0;
    if (order !== 0) return order;
  }
  return x.length - y.length;
}

const byName = (a: TagView, b: TagView) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name));

/** A project's tags, filtered and ordered (every tag is read: a project's tags are listed whole, as Gitaly does). */
export async function listTags(reader: ObjectReader, options: { search?: string; orderBy?: 'name' | 'updated' | 'version'; sort?: 'asc' | 'desc' }): Promise<TagView[]> {
  const refs = (await reader.repository.refs(TAG_PREFIX)).filter((ref) => matchesSearch(tagName(ref), options.search));
  const views: TagView[] = [];
  for (const ref of refs) views.push(await tagView(reader, ref));
  const orderBy = options.orderBy ?? 'updated';
  const compare =
    orderBy === 'name'
      ? byName
      : orderBy === 'version'
        ? (a: TagView, b: TagView) => compareVersions(a.name, b.name) || byName(a, b)
        : (a: TagView, b: TagView) => (a.commit?.committer.timestamp ?? 0) - (b.commit?.committer.timestamp ?? 0) || byName(a, b);
  views.sort(compare);
  return (options.sort ?? 'desc') === 'desc' ? views.reverse() : views;
}

/** A tag by name; `404 Tag Not Found` otherwise. */
export async function findTagOrNotFound(reader: ObjectReader, name: string): Promise<Ref> {
  const ref = await reader.repository.ref(`${TAG_PREFIX}${name}`);
  if (!ref) throw new NotFoundError('Tag');
  return ref;
}
