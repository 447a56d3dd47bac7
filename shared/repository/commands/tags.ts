/**
 * Tag writes (GitLab's `Tags::CreateService`, `Tags::DestroyService`): a lightweight tag, or an
 * annotated one when a message is given (a tag object by the caller); deleting one. Both are ref
 * changes reported like pushes (`tag_push` hooks, feed events).
 */
import type { ProjectSubject } from '../../auth';
import { BadRequestError } from '../../platform/http/errors';
import type { User } from '../../users';
import { formatTimezone, serializeTag } from '../git/objects/parse';
import { hashObject } from '../git/objects/types';
import { openRepository } from '../repository';
import { ObjectReader } from '../queries/objects';
import { TAG_PREFIX, resolveRevision } from '../queries/revisions';
import type { Ref } from '../store/refs';
import { runTagRemovals } from '../tag-removals';
import { isValidRefName } from './ref-names';
import { changeRef } from './refs';

/** Creates a tag at a revision; answers its ref and a reader to present it with. */
export async function createTag(subject: ProjectSubject, user: User, name: string, revision: string, message: string | undefined): Promise<{ ref: Ref; reader: ObjectReader }> {
  if (!isValidRefName(name)) throw new BadRequestError('Tag name invalid');
  const repository = await openRepository(subject.project);
  const reader = new ObjectReader(repository);
  const refName = `${TAG_PREFIX}${name}`;
  if (await repository.ref(refName)) throw new BadRequestError(`Tag ${name} already exists`);
  const target = await resolveRevision(reader, subject.project, revision);
  const object = target ? await reader.peel(target) : undefined;
  if (!target || !object) throw new BadRequestError(`Target ${revision} is invalid`);
  let oid = target;
  const annotation = message?.trim();
  if (annotation) {
    const tagger = { name: user.name, email: user.email, timestamp: Math.floor(Date.now() / 1000), timezone: formatTimezone(0) };
    const type = (await reader.object(target))!.type;
    const body = serializeTag({ object: target, type, tag: name, tagger, message: annotation });
    oid = hashObject('tag', body);
    await repository.writeObjects([{ type: 'tag', body }]);
  }
  if (!(await changeRef({ subject, user, repository }, { name: refName, oldOid: null, newOid: oid }))) throw new BadRequestError(`Tag ${name} already exists`);
  return { ref: { name: refName, oid }, reader };
}

/** Deletes a tag the caller found (`oid` what it held then), and what hangs on it (its release: `tag-removals.ts`). */
export async function deleteTag(subject: ProjectSubject, user: User, ref: Ref): Promise<void> {
  const repository = await openRepository(subject.project);
  if (!(await changeRef({ subject, user, repository }, { name: ref.name, oldOid: ref.oid, newOid: null }))) {
    throw new BadRequestError('Failed to remove tag');
  }
  await runTagRemovals(subject.project, ref.name.slice(TAG_PREFIX.length));
}
