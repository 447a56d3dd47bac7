/** A user's preferences (`PUT /user/preferences`, GitLab's `UserPreferences::UpdateService`): only the given fields change, also when two requests change different ones at once. */
import { NotFoundError } from '../../platform/http/errors';
import { changeUserAttribute, type User, type UserPreferences } from '../store/users';

export interface PreferencesInput {
  view_diffs_file_by_file?: boolean;
  show_whitespace_in_diffs?: boolean;
  pass_user_identities_to_ci_jwt?: boolean;
}

/** GitLab's defaults for a user who never set a preference. */
export const DEFAULT_PREFERENCES: UserPreferences = { viewDiffsFileByFile: false, showWhitespaceInDiffs: true, passUserIdentitiesToCiJwt: false };

export async function updateUserPreferences(user: User, input: PreferencesInput): Promise<User> {
  const changed = await changeUserAttribute(user, 'preferences', (current) => {
    const previous = current.preferences ?? DEFAULT_PREFERENCES;
    return {
      viewDiffsFileByFile: input.view_diffs_file_by_file ?? previous.viewDiffsFileByFile,
      showWhitespaceInDiffs: input.show_whitespace_in_diffs ?? previous.showWhitespaceInDiffs,
      passUserIdentitiesToCiJwt: input.pass_user_identities_to_ci_jwt ?? previous.passUserIdentitiesToCiJwt,
    };
  });
  if (changed === 'gone') throw new NotFoundError('User');
  return { ...user, preferences: changed.value };
}
