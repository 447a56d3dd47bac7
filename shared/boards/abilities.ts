/**
 * The boards feature's abilities (assembled by `shared/auth/policy.ts`), as GitLab's policies:
 * whoever reads a project's issues reads its boards (`read_issue_board`: the issues feature
 * disabled, nobody does), reporters and above create, edit and delete boards and their lists
 * (`admin_issue_board`, `admin_issue_board_list`); a group's boards are read by whoever reads the
 * group and written by its reporters and above.
 */
import { featureOpen, REPORTER, type Abilities, type GroupRule, type ProjectRule } from '../auth/rules';

const readBoards: ProjectRule = (user, s) => featureOpen(user, s, 'issues');
const adminBoards: ProjectRule = (user, s) => readBoards(user, s) && s.access.level >= REPORTER;
const groupReporter: GroupRule = (_user, s) => s.level >= REPORTER;

export const abilities = {
  project: {
    read_issue_board: readBoards,
    admin_issue_board: adminBoards,
    admin_issue_board_list: adminBoards,
  } satisfies Record<string, ProjectRule>,
  group: {
    // Reading the group is settled by `findGroupOrNotFound` (GitLab's `read_issue_board` on a group is `read_group`).
    read_issue_board: () => true,
    admin_issue_board: groupReporter,
    admin_issue_board_list: groupReporter,
  } satisfies Record<string, GroupRule>,
} satisfies Abilities;
