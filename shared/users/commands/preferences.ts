/** A user's preferences (`PUT /user/preferences`, GitLab's `UserPreferences::UpdateService`): only the given fields change. */
import { ConflictError } from '../../platform/http/errors';
import { writeUserAttribute, type User, type UserPreferences } from '../store/users';

export interface PreferencesInput {
  view_diffs_file_by_file?: boolean;
  show_whitespace_in_diffs?: boolean;
  pass_user_identities_to_ci_jwt?: boolean;
}

/** GitLab's defaults for a user who never set a preference. */
export const DEFAULT_PREFERENCES: UserPreferences = { viewDiffsFileByFile: false, showWhitespaceInDiffs: true, passUserIdentitiesToCiJwt: false };

export async function updateUserPreferences(user: User, input: PreferencesInput): Promise<User> {
  const previous = user.preferences ?? DEFAULT_PREFERENCES;
  const preferences: UserPreferences = {
    viewDiffsFileByFile: input.view_diffs_file_by_file ?? previous.viewDiffsFileByFile,
    showWhitespaceInDiffs: input.show_whitespace_in_diffs ?? previous.showWhitespaceInDiffs,
    passUserIdentitiesToCiJwt: input.pass_user_identities_to_ci_jwt ?? previous.passUserIdentitiesToCiJwt,
  };
  if (!(await writeUserAttribute(user.id, 'preferences', preferences))) throw new ConflictError('The user was modified by another request; try again');
  return { ...user, preferences };
}
