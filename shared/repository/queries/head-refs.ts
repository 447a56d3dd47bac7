/**
 * A project's newest refs as others show them in one value (the badges feature's `%{commit_sha}`
 * and `%{latest_tag}` placeholders): the commit at the head of the default branch, and the name
 * of the tag GitLab's `TagsFinder` lists first by default (`updated`, descending).
 */
import type { Project } from '../../projects';
import { openRepository } from '../repository';
import { ObjectReader } from './objects';
import { BRANCH_PREFIX } from './revisions';
import { listTags } from './tags';

/** The commit the default branch points at; `undefined` for an empty repository. */
export async function defaultBranchHead(project: Project): Promise<string | undefined> {
  return (await (await openRepository(project)).ref(`${BRANCH_PREFIX}${project.defaultBranch}`))?.oid;
}

/** The tag whose commit is the newest (every tag is read, as the tags list does); `undefined` without tags. */
export async function latestTagName(project: Project): Promise<string | undefined> {
  const tags = await listTags(new ObjectReader(await openRepository(project)), { orderBy: 'updated', sort: 'desc' });
  return tags[0]?.name;
}
