import { routes as feature } from '../../shared/hooks/routes';
import { testHooksWith } from '../../shared/hooks/test-hooks';
import { lazily } from '../../shared/platform/lazy';
import { apiHandler } from '../api';

// Testing a project hook (`POST /projects/:id/hooks/:hook_id/test/:trigger`) sends a sample event
// of the project, found by the feature whose events it is, built by the delivery's payload
// builders: each loaded on first use, so the hooks function's cold start holds none of them.
const pushSample = lazily(() => import('../../shared/repository/push/webhooks/test-sample'), (m) => m.pushTestSample);
const issueSamples = () => import('../../shared/issues/webhooks/test-samples');
testHooksWith({
  samplers: {
    push_events: pushSample,
    tag_push_events: pushSample,
    issues_events: lazily(issueSamples, (m) => m.issueTestSample),
    confidential_issues_events: lazily(issueSamples, (m) => m.issueTestSample),
    note_events: lazily(issueSamples, (m) => m.noteTestSample),
    merge_requests_events: lazily(() => import('../../shared/merge-requests/webhooks/test-sample'), (m) => m.mergeRequestTestSample),
  },
  payloads: lazily(() => import('../hook_delivery/payloads'), (m) => () => m.payloads),
});

export const routes = feature.hooks;
export const handler = apiHandler('hooks', routes);
