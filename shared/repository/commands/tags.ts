/**
 * Tag writes (GitLab's `Tags::CreateService`, `Tags::DestroyService`): a lightweight tag, or an
 * annotated one when a message is given (a tag object by the caller); deleting one. Both are ref
 * changes reported like pushes (`tag_push` hooks, feed events), checked as GitLab's pre-receive
 * hook checks changes from the web (`TagCheck`: protected tags).
 */
import type { ProjectSubject } from '../../auth';
import { BadRequestError, ForbiddenError } from '../../platform/http/errors';
import type { User } from '../../users';
import { formatTimezone, serializeTag } from '../git/objects/parse';
import { hashObject } from '../git/objects/types';
import { openRepository } from '../repository';
import { ObjectReader } from '../queries/objects';
import { TagRules } from '../queries/protection';
import { TAG_PREFIX, resolveRevision } from '../queries/revisions';
import type { Ref } from '../store/refs';
import { runTagRemovals } from '../tag-removals';
import { isValidRefName } from './ref-names';
import { changeRef, tagCheck } from './refs';

/**
 * Creates a tag at a revision; answers its ref, and a reader and the protections to present it
 * with. `protections`: the project's protected tags when the caller has read them already.
 */
export async function createTag(
  subject: ProjectSubject,
  user: User,
  name: string,
  revision: string,
  message: string | undefined,
  protections?: TagRules,
): Promise<{ ref: Ref; reader: ObjectReader; rules: TagRules }> {
  if (!isValidRefName(name)) throw new BadRequestError('Tag name invalid');
  const [repository, rules] = await Promise.all([openRepository(subject.project), protections ?? TagRules.load(subject.project.id)]);
  const reader = new ObjectReader(repository);
  const refName = `${TAG_PREFIX}${name}`;
  if (await repository.ref(refName)) throw new BadRequestError(`Tag ${name} already exists`);
  const target = await resolveRevision(reader, subject.project, revision);
  const object = target ? await reader.peel(target) : undefined;
  if (!target || !object) throw new BadRequestError(`Target ${revision} is invalid`);
  const refused = tagCheck({ subject, user }, rules, name, null, target, true);
  if (refused) throw new BadRequestError(refused);
  let oid = target;
  const annotation = message?.trim();
  if (annotation) {
    const tagger = { name: user.name, email: user.email, timestamp: Math.floor(Date.now() / 1000), timezone: formatTimezone(0) };
    const type = (await reader.object(target))!.type;
    const body = serializeTag({ object: target, type, tag: name, tagger, message: annotation });
    oid = hashObject('tag', body);
    await repository.writeObjects([{ type: 'tag', body }]);
  }
  if (!(await changeRef({ subject, user, repository }, { name: refName, oldOid: null, newOid: oid }, rules))) throw new BadRequestError(`Tag ${name} already exists`);
  return { ref: { name: refName, oid }, reader, rules };
}

/**
 * Deletes a tag the caller found (`oid` what it held then), and what hangs on it (its release:
 * `tag-removals.ts`). A protected tag: 403 below maintainers (GitLab's `delete_tag`), and 400 for
 * whoever its protection does not let create it.
 */
export async function deleteTag(subject: ProjectSubject, user: User, ref: Ref): Promise<void> {
  const [repository, rules] = await Promise.all([openRepository(subject.project), TagRules.load(subject.project.id)]);
  const name = ref.name.slice(TAG_PREFIX.length);
  if (!rules.canDelete(user, subject, name)) throw new ForbiddenError();
  const refused = tagCheck({ subject, user }, rules, name, ref.oid, null, true);
  if (refused) throw new BadRequestError(refused);
  if (!(await changeRef({ subject, user, repository }, { name: ref.name, oldOid: ref.oid, newOid: null }, rules))) {
    throw new BadRequestError('Failed to remove tag');
  }
  await runTagRemovals(subject.project, name);
}
