/**
 * Every permission decision is made here, by name: handlers call `authorize(user, 'admin_users')`
 * or `authorize(user, 'archive_project', project)` and the `find…OrNotFound` helpers; they never
 * compare roles or access levels inline. The abilities themselves are declared by the features
 * they belong to (`shared/<feature>/abilities.ts`, written with `rules.ts`), as GitLab declares
 * them per policy class; this module assembles them and adds what holds for all: admins may do
 * everything to every project and group.
 */
import { abilities as boards } from '../boards/abilities';
import { abilities as ci } from '../ci/abilities';
import { abilities as deployKeys } from '../deploy-keys/abilities';
import { abilities as deployTokens } from '../deploy-tokens/abilities';
import { abilities as groups } from '../groups/abilities';
import { abilities as hooks } from '../hooks/abilities';
import { abilities as issues } from '../issues/abilities';
import { abilities as mergeRequests } from '../merge-requests/abilities';
import { abilities as packages } from '../packages/abilities';
import { ForbiddenError, UnauthorizedError } from '../platform/http/errors';
import type { Caller } from '../platform/http/context';
import { abilities as projects } from '../projects/abilities';
import { abilities as releases } from '../releases/abilities';
import { abilities as repository } from '../repository/abilities';
import { abilities as snippets } from '../snippets/abilities';
import { abilities as terraformStates } from '../terraform-states/abilities';
import { abilities as users } from '../users/abilities';
import { abilities as wikis } from '../wikis/abilities';
import { isAdmin, type GroupSubject, type ProjectSubject } from './rules';

const globalRules = { ...users.global, ...groups.global, ...projects.global, ...deployKeys.global, ...hooks.global };
const projectRules = { ...projects.project, ...repository.project, ...issues.project, ...mergeRequests.project, ...ci.project, ...releases.project, ...deployTokens.project, ...deployKeys.project, ...wikis.project, ...snippets.project, ...terraformStates.project, ...packages.project, ...boards.project };
const groupRules = { ...groups.group, ...issues.group, ...ci.group, ...deployTokens.group, ...boards.group };

type GlobalAbility = keyof typeof globalRules;
type ProjectAbility = keyof typeof projectRules;
type GroupAbility = keyof typeof groupRules;
export type Ability = GlobalAbility | ProjectAbility | GroupAbility;

/** Whether `user` (null: anonymous) may do `ability`, on `subject` for project and group abilities. */
export function can(user: Caller | null, ability: GlobalAbility): boolean;
export function can(user: Caller | null, ability: ProjectAbility, subject: ProjectSubject): boolean;
export function can(user: Caller | null, ability: GroupAbility, subject: GroupSubject): boolean;
export function can(user: Caller | null, ability: Ability, subject?: ProjectSubject | GroupSubject): boolean {
  if (ability in globalRules) return globalRules[ability as GlobalAbility](user);
  // Admins may do everything to every project and group (blocked admins are never authenticated).
  if (isAdmin(user)) return true;
  if (subject?.kind === 'project') return projectRules[ability as ProjectAbility](user, subject);
  if (subject?.kind === 'group') return groupRules[ability as GroupAbility](user, subject);
  return false;
}

/** Throws 403 (401 when anonymous) unless `user` may do `ability`. */
export function authorize(user: Caller | null, ability: GlobalAbility, reason?: string): asserts user is Caller;
export function authorize(user: Caller | null, ability: ProjectAbility, subject: ProjectSubject): asserts user is Caller;
export function authorize(user: Caller | null, ability: GroupAbility, subject: GroupSubject): asserts user is Caller;
export function authorize(user: Caller | null, ability: Ability, subjectOrReason?: ProjectSubject | GroupSubject | string): asserts user is Caller {
  const subject = typeof subjectOrReason === 'object' ? subjectOrReason : undefined;
  if ((can as (u: Caller | null, a: Ability, s?: ProjectSubject | GroupSubject) => boolean)(user, ability, subject)) return;
  if (user === null) throw new UnauthorizedError();
  throw new ForbiddenError(typeof subjectOrReason === 'string' ? subjectOrReason : undefined);
}
