/** Stored records for unit tests of the data and presentation layers (no I/O). */
import type { ProjectSubject } from '../../shared/auth';
import type { Issue } from '../../shared/issues/store/issues';

/**
 * Private project 5 in namespace 8 (a user's, or a group's with `kind: 'group'`), as its owner
 * sees it: the fields the issue rules read.
 */
export const projectSubjectRecord = (namespaceKind: 'user' | 'group' = 'user'): ProjectSubject =>
  ({
    kind: 'project',
    project: { id: 5, namespaceId: 8, visibility: 'private', archived: false },
    namespace: { id: 8, kind: namespaceKind, ancestorIds: [] },
    access: { level: 50, projectAccess: 50, groupAccess: null },
  }) as unknown as ProjectSubject;

/** An open issue of project 5 (iid 3, id 70, labels 11 and 12, version 4); `overrides` replace fields. */
export const issueRecord = (overrides: Partial<Issue> = {}): Issue => ({
  id: 70,
  iid: 3,
  projectId: 5,
  title: 'Crash',
  description: 'It crashes on start',
  state: 'opened',
  confidential: false,
  authorId: 1,
  assigneeIds: [],
  milestoneId: null,
  labelIds: [11, 12],
  dueDate: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  closedAt: null,
  deletedAt: null,
  version: 4,
  ...overrides,
});

/** GitLab's `ProjectHook` entity fields: what a hook response holds, and nothing of its token. */
export const HOOK_FIELDS = [
  'id',
  'url',
  'project_id',
  'push_events',
  'issues_events',
  'confidential_issues_events',
  'merge_requests_events',
  'tag_push_events',
  'note_events',
  'confidential_note_events',
  'job_events',
  'pipeline_events',
  'wiki_page_events',
  'deployment_events',
  'enable_ssl_verification',
  'created_at',
].sort();
