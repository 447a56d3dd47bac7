/**
 * Protected tags (`PROJECT#<id>` / `PROTECTED_TAG#<name>`, see `store/protected-refs.ts`): who may
 * create a tag the name matches (GitLab's `ProtectedTag::CreateAccessLevel`s). Never edited in
 * place: GitLab's API protects and unprotects only.
 */
import { repositoryCollections, repositoryKeys, repositorySequences } from './keys';
import {
  deleteProtectedRef,
  getProtectedRef,
  insertProtectedRef,
  listProtectedRefs,
  newGrants,
  type AccessLevelGrant,
  type ProtectedRefFields,
  type ProtectedRefKind,
} from './protected-refs';

export interface ProtectedTag extends ProtectedRefFields {
  createAccessLevels: AccessLevelGrant[];
}

const kind: ProtectedRefKind = {
  type: 'ProtectedTag',
  key: repositoryKeys.protectedTag,
  collection: repositoryCollections.protectedTags,
  sequence: repositorySequences.protectedTags,
  accessLevelSequence: repositorySequences.tagAccessLevels,
};

/** Every protected tag of a project, in byte order of their names. */
export const listProtectedTags = (projectId: number): Promise<ProtectedTag[]> => listProtectedRefs(kind, projectId);

/** The protection of exactly this name (a pattern by the pattern). */
export const getProtectedTag = (projectId: number, name: string): Promise<ProtectedTag | undefined> => getProtectedRef(kind, projectId, name);

/** Protects a name (or pattern) with one create level while the project is live. */
export function insertProtectedTag(projectId: number, name: string, createAccessLevel: number): Promise<ProtectedTag | 'exists' | 'project_gone'> {
  return insertProtectedRef(kind, projectId, name, async (base) => ({ ...base, createAccessLevels: await newGrants(kind, [createAccessLevel]) }));
}

/** Unprotects a name; false when it was not protected. */
export const deleteProtectedTag = (projectId: number, name: string): Promise<boolean> => deleteProtectedRef(kind, projectId, name);
