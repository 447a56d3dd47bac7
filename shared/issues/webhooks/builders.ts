/**
 * How the issues feature's hook events are delivered (GitLab's `WebHookService` for issues and
 * notes): issue events go to hooks with `issues_events`, comments to hooks with `note_events`,
 * and those of confidential issues only to hooks that opted in with `confidential_issues_events` /
 * `confidential_note_events` (as `Confidential Issue Hook` / `Confidential Note Hook`), so a hook
 * does not leak to its receiver what the project's guests may not read. The composition root
 * (`functions/hook_delivery/handler.ts`) gives these to delivery.
 */
import type { HookDeliveryContext, HookEventOf, HookPayloadBuilder, HookTrigger } from '../../hooks';
import type { Issue } from '../store/issues';
import { listLabels } from '../store/labels';
import { listMilestones } from '../store/milestones';
// The kinds' declaration, and the registration of how they are stored, which reading them needs.
import './events';
import { issueHookPayload, noteHookPayload, type IssueHookContext } from './payloads';

/** `X-Gitlab-Event` of the two kinds, before `Confidential ` for a confidential issue. */
const EVENT_NAMES = { issue: 'Issue Hook', note: 'Note Hook' } as const;

/**
 * The `X-Gitlab-Event` of an issue or note event.
 * @example issueHookEventName('note', true); // 'Confidential Note Hook'
 */
export function issueHookEventName(kind: 'issue' | 'note', confidential: boolean): string {
  return confidential ? `Confidential ${EVENT_NAMES[kind]}` : EVENT_NAMES[kind];
}

/** Internal: the delivery context with the project's labels and milestones, read now (a deleted one is not shown). */
async function issueContext(context: HookDeliveryContext): Promise<IssueHookContext> {
  const [labels, milestones] = await Promise.all([listLabels(context.project.id), listMilestones(context.project.id)]);
  return {
    ...context,
    labels: new Map(labels.map((label) => [label.id, label])),
    milestones: new Map(milestones.map((milestone) => [milestone.id, milestone])),
  };
}

/** Internal: the users an issue shows (its author and assignees). */
const issueUserIds = (issue: Issue) => [issue.authorId, ...issue.assigneeIds];

/** The payload builders of the `issue` and `note` hook events. */
export const issueHookPayloads = {
  issue: {
    trigger: ({ issue }): HookTrigger => (issue.confidential ? 'confidentialIssuesEvents' : 'issuesEvents'),
    eventName: ({ issue }) => issueHookEventName('issue', issue.confidential),
    userIds: ({ issue, previous }) => [...issueUserIds(issue), ...(previous?.assigneeIds ?? [])],
    build: async (event, context) => issueHookPayload(await issueContext(context), event.issue, event.previous, event.action),
  },
  note: {
    trigger: ({ issue }): HookTrigger => (issue.confidential ? 'confidentialNoteEvents' : 'noteEvents'),
    eventName: ({ issue }) => issueHookEventName('note', issue.confidential),
    userIds: ({ issue, note }) => [...issueUserIds(issue), note.authorId],
    build: async (event, context) => noteHookPayload(await issueContext(context), event.note, event.issue),
  },
} satisfies { issue: HookPayloadBuilder<HookEventOf<'issue'>>; note: HookPayloadBuilder<HookEventOf<'note'>> };
