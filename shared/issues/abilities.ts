/** The issues feature's abilities on a project and on a group (assembled by `shared/auth/policy.ts`). */
import { featureOpen, GUEST, MAINTAINER, OWNER, readsProject, REPORTER, type Abilities, type GroupRule, type ProjectRule } from '../auth/rules';

/** See the project's (non-confidential) issues: whoever reads the project, when issues are enabled (members only when `private`). */
const readIssue: ProjectRule = (user, s) => featureOpen(user, s, 'issues');

export const abilities = {
  project: {
    read_issue: readIssue,
    /** See every confidential issue of the project: reporter or above. */
    read_confidential_issues: (user, s) => readIssue(user, s) && s.access.level >= REPORTER,
    /** Open an issue: any signed-in user who can read the project's issues. */
    create_issue: (user, s) => user !== null && readIssue(user, s),
    /**
     * Link and unlink the project's issues (GitLab's `admin_issue_link` on an issue, guest since
     * 17.0: `IssuePolicy` enables it for project members who can read the issue, and with
     * `admin_issue`). The per-issue part (confidential issues) is checked with the issue loaded.
     */
    admin_issue_link: (user, s) => readIssue(user, s) && s.access.level >= GUEST,
    /** Edit any issue, set its labels, milestone and assignee: reporter or above. */
    admin_issue: (user, s) => readIssue(user, s) && s.access.level >= REPORTER,
    /** Delete an issue: owner only. */
    destroy_issue: (_user, s) => s.access.level >= OWNER,
    /** Set an issue's `created_at` / `updated_at`: owner only (admins too, as for everything). */
    set_issue_timestamps: (_user, s) => s.access.level >= OWNER,
    /** Create, edit and delete the project's labels: reporter or above. */
    admin_label: (_user, s) => s.access.level >= REPORTER,
    /** Create, edit, close and delete milestones: reporter or above. */
    admin_milestone: (_user, s) => s.access.level >= REPORTER,
    /**
     * Edit and delete other people's notes (on issues and merge requests): maintainer or above
     * (GitLab's `ProjectPolicy` enables `admin_note` with `maintainer_access`; `NotePolicy`
     * delegates to it and prevents it when the noteable cannot be read, which the routes settle
     * first: they find the noteable as the caller may read it). A note's author may always; see
     * `commands/notes.ts`.
     */
    admin_note: (user, s) => readsProject(user, s) && s.access.level >= MAINTAINER,
  } satisfies Record<string, ProjectRule>,
  group: {
    /** Create, edit and delete the group's labels (GitLab's `GroupPolicy`: reporter or above, inherited from ancestors). */
    admin_label: (_user, s) => s.level >= REPORTER,
    /** Create, edit, close and delete the group's milestones: reporter or above. */
    admin_milestone: (_user, s) => s.level >= REPORTER,
  } satisfies Record<string, GroupRule>,
} satisfies Abilities;
