/**
 * The composition root of the API functions: the platform's group handler, the route catalog's
 * declaration of the group, and the users feature's authentication. Every
 * `functions/<group>/handler.ts` is one call of {@link apiHandler}.
 */
import { routeKeysOf, routePrefix, type GroupName, type RouteKeyOf } from '../shared/catalog';
import { createGroupHandler } from '../shared/platform/group-handler';
import type { AnyRoute } from '../shared/platform/http/route';
import { lazily } from '../shared/platform/lazy';
import { onDeploymentSucceeded, onPipelineFinished } from '../shared/ci/listeners';
import { forkWithProject, onProjectCreated, onProjectDestroyed, onProjectTransferred, onRunnerSettingsChanged, removeWithProject } from '../shared/projects/commands/lifecycle';
import { decideJobTokenReachWith } from '../shared/projects/job-token-reach';
import { onGroupCreated, onGroupDestroyed, removeWithGroup } from '../shared/groups/commands/lifecycle';
import { onLabelDeleted } from '../shared/issues/label-listeners';
import { onMemberAdded, onMemberRemoved } from '../shared/members/listeners';
import { registerTodoTargets } from '../shared/issues/todo-targets';
import { mentionTodosWith } from '../shared/repository/commit-note-todos';
import { onBranchesPushed, onWikiPushed } from '../shared/repository/push/listeners';
import { removeWithTag } from '../shared/repository/tag-removals';
import { tagReleasesWith } from '../shared/repository/tag-releases';
import { resolveDeployTokensWith, resolveJobTokensWith } from '../shared/repository/smart-http/credentials';
import { authenticate, authenticateDeployTokensWith, authenticateJobTokensWith, onUserCreated, onUserDestroyed, removeWithUser, soloOwnedGroups, trackActivity } from '../shared/users';

// The wiring below is lazy (`shared/platform/lazy.ts`): each hook imports the module that defines
// it the first time it runs, so a function loads at cold start only what its own routes import (a
// projects function whose requests never push nor delete a project never loads CI's YAML parser).
// Each is the defining module, not the feature's index: the bundler keeps in the function's
// cold-start code every export of a module that is imported dynamically and statically, and an
// index is loaded statically wherever a feature above it is. The registration points imported
// above are small modules; what a feature registers when loaded (its hook event forms,
// read-your-writes partitions) is in place before its hook runs, as its hook imports it.
const lazy = {
  repositoryLifecycle: () => import('../shared/repository/lifecycle'),
  commitTodoTargets: () => import('../shared/repository/todo-targets'),
  commitMentionTodos: () => import('../shared/issues/commands/mention-todos'),
  authorReassignment: () => import('../shared/issues/commands/author-reassignment'),
  awardReassignment: () => import('../shared/issues/commands/award-reassignment'),
  issueUserCounts: () => import('../shared/issues/commands/user-counts'),
  mergeRequestPush: () => import('../shared/merge-requests/commands/push'),
  mergeRequestPipelines: () => import('../shared/merge-requests/commands/pipelines'),
  mergeRequestDeployments: () => import('../shared/merge-requests/commands/deployments'),
  mergeRequestTodoTargets: () => import('../shared/merge-requests/todo-targets'),
  mergeRequestLifecycle: () => import('../shared/merge-requests/lifecycle'),
  mergeRequestAuthorReassignment: () => import('../shared/merge-requests/commands/author-reassignment'),
  ciPush: () => import('../shared/ci/commands/push'),
  wikiPush: () => import('../shared/wikis/push'),
  releaseRemoval: () => import('../shared/releases/commands/releases'),
  tagReleases: () => import('../shared/releases/queries/tag-releases'),
  ciRemoval: () => import('../shared/ci/commands/removal'),
  ciJobTokens: () => import('../shared/ci/commands/job-tokens'),
  ciRunnerQueues: () => import('../shared/ci/commands/runner-queues'),
  deployTokenRemoval: () => import('../shared/deploy-tokens/commands/deploy-tokens'),
  deployTokenGitAccess: () => import('../shared/deploy-tokens/queries/deploy-tokens'),
  deployKeyRemoval: () => import('../shared/deploy-keys/commands/deploy-keys'),
  resourceBots: () => import('../shared/members/access-tokens'),
  snippetRemoval: () => import('../shared/snippets/commands/snippets'),
  terraformStateRemoval: () => import('../shared/terraform-states/commands/states'),
  packageRemoval: () => import('../shared/packages/commands/packages'),
  boardLists: () => import('../shared/boards/commands'),
  memberships: () => import('../shared/members/commands'),
  groupDeletion: () => import('../shared/groups/commands/delete-group'),
  forgetUser: () => import('../shared/projects/commands/forget-user'),
  userEvents: () => import('../shared/projects/commands/remove-user-events'),
  systemEvents: () => import('../shared/hooks/system-events'),
};

// A fork reads its source's git objects and a deleted project releases them: the repository
// builds on projects, which cannot import it; every function that forks or deletes projects
// (projects, groups, users) goes through this root.
forkWithProject(lazily(lazy.repositoryLifecycle, (m) => m.forkRepository));
removeWithProject(lazily(lazy.repositoryLifecycle, (m) => m.removeRepository));
// The repository and the issues do not import each other: a commit note's mentions create todos
// (the issues feature's) in the note's transaction, and `/todos` presents commit targets. Every
// function that writes commit notes or serves `/todos` goes through this root.
mentionTodosWith(lazily(lazy.commitMentionTodos, (m) => m.commitMentionTodos));
registerTodoTargets('Commit', { load: lazily(lazy.commitTodoTargets, (m) => m.commitTodoTargets.load), present: lazily(lazy.commitTodoTargets, (m) => m.commitTodoTargets.present) });
// Merge requests sit above the repository and the issues: a branch change refreshes the merge
// requests of its branch (new version, merge status), and `/todos` presents merge request targets.
// Every function that changes branches (repository, web's git pushes, merge requests) goes through this root.
onBranchesPushed(lazily(lazy.mergeRequestPush, (m) => m.refreshMergeRequests));
registerTodoTargets('MergeRequest', {
  load: lazily(lazy.mergeRequestTodoTargets, (m) => m.mergeRequestTodoTargets.load),
  present: lazily(lazy.mergeRequestTodoTargets, (m) => m.mergeRequestTodoTargets.present),
});
removeWithProject(lazily(lazy.mergeRequestLifecycle, (m) => m.removeMergeRequestObjects));
// A deleted project's pending todos and open assigned issues leave their users' counts (`GET /user_counts`).
removeWithProject(lazily(lazy.issueUserCounts, (m) => m.releaseUserCountsWithProject));
// CI sits above the repository: a pushed branch or tag with a `.gitlab-ci.yml` gets a pipeline; a
// deleted project takes its pipelines, traces, artifacts and CI/CD variables with it, a deleted
// group its CI/CD variables; a running job's token clones its project over smart HTTP (the web
// function imports this root too).
onBranchesPushed(lazily(lazy.ciPush, (m) => m.startPipelinesOnPush));
// The wikis sit above the repository: a push to a wiki's branch records its pages' feed events.
onWikiPushed(lazily(lazy.wikiPush, (m) => m.recordWikiPush));
removeWithProject(lazily(lazy.ciRemoval, (m) => m.removeCiObjects));
// …and a project whose shared or group runners are turned back on has its pending jobs queued for them (GitLab does).
const requeueOnRunnerSettings = lazily(lazy.ciRunnerQueues, (m) => m.requeueOnRunnerSettings);
onRunnerSettingsChanged(({ previous, next }) => requeueOnRunnerSettings(previous, next));
// …and a project moved to another namespace has its pending jobs moved to its new groups' runner queue.
const requeueOnTransfer = lazily(lazy.ciRunnerQueues, (m) => m.requeueOnTransfer);
onProjectTransferred(({ next }) => requeueOnTransfer(next.id));
removeWithGroup(lazily(lazy.ciRemoval, (m) => m.removeGroupCiObjects));
resolveJobTokensWith(lazily(lazy.ciJobTokens, (m) => m.jobTokenGitAccess));
// …and authenticates the API routes that take CI job tokens (releases, artifact downloads) as the job's user.
authenticateJobTokensWith(lazily(lazy.ciJobTokens, (m) => m.jobTokenGitAccess));
// A job token reaches another project only as that project's job token scope (CI's) lets it in:
// one decision for the API routes that take job tokens and for git over HTTP.
decideJobTokenReachWith(lazily(lazy.ciJobTokens, (m) => m.jobTokenScopeAllows));
// Deploy tokens are held by projects and groups, which cannot import them: a deleted project or
// group takes its tokens (and their pointers) with it; and a deploy token clones over smart HTTP
// (the repository cannot import them either). The web function imports this root too.
removeWithProject(lazily(lazy.deployTokenRemoval, (m) => m.removeProjectDeployTokens));
removeWithGroup(lazily(lazy.deployTokenRemoval, (m) => m.removeGroupDeployTokens));
resolveDeployTokensWith(lazily(lazy.deployTokenGitAccess, (m) => m.deployTokenGitAccess));
// …and authenticates the API routes that take deploy tokens (the package registry's).
authenticateDeployTokensWith(lazily(lazy.deployTokenGitAccess, (m) => m.deployTokenApiAccess));
// Deploy keys are linked to projects, which cannot import them: a deleted project takes its links
// with it, and the private keys no other project uses (GitLab's `destroyed_when_orphaned`).
removeWithProject(lazily(lazy.deployKeyRemoval, (m) => m.removeProjectDeployKeys));
// Snippets live in their project's partition (deleted with it), their contents in S3 under a
// prefix of their own: a deleted project takes them with it.
removeWithProject(lazily(lazy.snippetRemoval, (m) => m.removeProjectSnippets));
// Terraform states likewise: their items in the project's partition, their versions' contents in S3.
removeWithProject(lazily(lazy.terraformStateRemoval, (m) => m.removeProjectTerraformStates));
// Packages too: their items in the project's partition, their files' contents in S3 under a prefix of their own.
removeWithProject(lazily(lazy.packageRemoval, (m) => m.removeProjectPackages));
// Boards sit above the issues: a deleted label takes its board lists with it (GitLab's
// `dependent: :destroy`), on the boards of its project, or of its group's projects and subgroups.
// A deleted project's or group's boards go with its partition.
onLabelDeleted(lazily(lazy.boardLists, (m) => m.removeListsOfLabel));
// Merge requests sit above CI: a finished pipeline merges the merge requests waiting for it
// (merge when pipeline succeeds). Every function that finishes pipelines (runners, jobs) goes through this root.
onPipelineFinished(lazily(lazy.mergeRequestPipelines, (m) => m.mergeWhenPipelineSucceeded));
// …and a successful deployment is linked to the merged merge requests it shipped (GitLab's
// `LinkMergeRequestsService`). Every function that moves deployments (runners, CI, the deployments API) goes through this root.
onDeploymentSucceeded(lazily(lazy.mergeRequestDeployments, (m) => m.linkDeploymentMergeRequests));
// Releases sit above the repository: a tag deleted through the API takes its release with it
// (GitLab's `Tags::DestroyService`). A deleted project's releases go with its partition.
removeWithTag(lazily(lazy.releaseRemoval, (m) => m.removeReleaseOfTag));
// …and the tags API shows each tag's release (`release`), read for a page of tags at once.
tagReleasesWith(lazily(lazy.tagReleases, (m) => m.releasesOfTags));
// Project and group access tokens are members' bots: a deleted project or group deletes its bots (GitLab does).
removeWithProject(lazily(lazy.resourceBots, (m) => m.removeProjectBots));
removeWithGroup(lazily(lazy.resourceBots, (m) => m.removeGroupBots));
// Deleting a user also removes what it has in the features that build on users: with
// `hard_delete`, the groups it solely owns (found through its memberships, so first), then its
// personal projects and stars, then its issues and merge requests (moved to the ghost user, or with
// `hard_delete` deleted with its notes; after the projects, so those go whole), its award emoji
// (likewise), then its memberships (users cannot import them), and last its feed events and
// contribution entries (deleted either way, whatever the steps before recorded). Users are
// deleted by the jobs worker (`functions/jobs`), which loads this root.
const runGroupDeletion = lazily(lazy.groupDeletion, (m) => m.runGroupDeletion);
const removeAllMembershipsOf = lazily(lazy.memberships, (m) => m.removeAllMembershipsOf);
removeWithUser(
  async (user, { hardDelete }) => {
    if (hardDelete) for (const group of await soloOwnedGroups(user.id)) await runGroupDeletion(group.id);
  },
  lazily(lazy.forgetUser, (m) => m.forgetUser),
  lazily(lazy.authorReassignment, (m) => m.removeAuthoredIssues),
  lazily(lazy.mergeRequestAuthorReassignment, (m) => m.removeAuthoredMergeRequests),
  lazily(lazy.awardReassignment, (m) => m.removeUserAwards),
  (user) => removeAllMembershipsOf(user.id),
  lazily(lazy.userEvents, (m) => m.removeUserEvents),
);

// System hooks (the hooks feature's) hear of projects, users, groups and members created and
// deleted, which sit below the hooks or beside them: each change puts a system event in the outbox
// (one write), delivered from the table's stream. Every function that makes these changes (projects,
// users, groups, members, and the jobs worker's deletions) goes through this root.
onProjectCreated(lazily(lazy.systemEvents, (m) => m.projectCreated));
onProjectDestroyed(lazily(lazy.systemEvents, (m) => m.projectDestroyed));
onUserCreated(lazily(lazy.systemEvents, (m) => m.userCreated));
onUserDestroyed(lazily(lazy.systemEvents, (m) => m.userDestroyed));
onGroupCreated(lazily(lazy.systemEvents, (m) => m.groupCreated));
onGroupDestroyed(lazily(lazy.systemEvents, (m) => m.groupDestroyed));
onMemberAdded(lazily(lazy.systemEvents, (m) => m.memberAdded));
onMemberRemoved(lazily(lazy.systemEvents, (m) => m.memberRemoved));

/** Exactly the routes of one group, each implemented. */
export type GroupRouteTable<G extends GroupName> = { [K in RouteKeyOf<G>]: AnyRoute };

export function apiHandler<G extends GroupName>(group: G, routes: GroupRouteTable<G>) {
  return createGroupHandler({ group, prefix: routePrefix(group), keys: routeKeysOf(group) }, routes, [authenticate(), trackActivity()]);
}
