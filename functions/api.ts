/**
 * The composition root of the API functions: the platform's group handler, the route catalog's
 * declaration of the group, and the users feature's authentication. Every
 * `functions/<group>/handler.ts` is one call of {@link apiHandler}.
 */
import { routeKeysOf, routePrefix, type GroupName, type RouteKeyOf } from '../shared/catalog';
import { createGroupHandler } from '../shared/platform/group-handler';
import type { AnyRoute } from '../shared/platform/http/route';
import { jobTokenGitAccess, onPipelineFinished, removeCiObjects, startPipelinesOnPush } from '../shared/ci';
import { forgetUser, forkWithProject, removeUserEvents, removeWithProject } from '../shared/projects';
import { commitMentionTodos, registerTodoTargets, removeAuthoredIssues, removeUserAwards } from '../shared/issues';
import { removeAllMembershipsOf, removeProjectBots } from '../shared/members';
import { mergeRequestTodoTargets, mergeWhenPipelineSucceeded, refreshMergeRequests, removeAuthoredMergeRequests, removeMergeRequestObjects } from '../shared/merge-requests';
import { commitTodoTargets, forkRepository, mentionTodosWith, onBranchesPushed, removeRepository, resolveJobTokensWith } from '../shared/repository';
import { authenticate, removeWithUser, soloOwnedGroups, trackActivity } from '../shared/users';
import { runGroupDeletion } from '../shared/groups';

// A fork reads its source's git objects and a deleted project releases them: the repository
// builds on projects, which cannot import it; every function that forks or deletes projects
// (projects, groups, users) goes through this root.
forkWithProject(forkRepository);
removeWithProject(removeRepository);
// The repository and the issues do not import each other: a commit note's mentions create todos
// (the issues feature's) in the note's transaction, and `/todos` presents commit targets. Every
// function that writes commit notes or serves `/todos` goes through this root.
mentionTodosWith(commitMentionTodos);
registerTodoTargets('Commit', commitTodoTargets);
// Merge requests sit above the repository and the issues: a branch change refreshes the merge
// requests of its branch (new version, merge status), and `/todos` presents merge request targets.
// Every function that changes branches (repository, web's git pushes, merge requests) goes through this root.
onBranchesPushed(refreshMergeRequests);
registerTodoTargets('MergeRequest', mergeRequestTodoTargets);
removeWithProject(removeMergeRequestObjects);
// CI sits above the repository: a pushed branch or tag with a `.gitlab-ci.yml` gets a pipeline; a
// deleted project takes its pipelines, traces and artifacts with it; a running job's token clones
// its project over smart HTTP (the web function imports this root too).
onBranchesPushed(startPipelinesOnPush);
removeWithProject(removeCiObjects);
resolveJobTokensWith(jobTokenGitAccess);
// Merge requests sit above CI: a finished pipeline merges the merge requests waiting for it
// (merge when pipeline succeeds). Every function that finishes pipelines (runners, jobs) goes through this root.
onPipelineFinished(mergeWhenPipelineSucceeded);
// Project access tokens are members' bots: a deleted project deletes its bots (GitLab does).
removeWithProject(removeProjectBots);
// Deleting a user also removes what it has in the features that build on users: with
// `hard_delete`, the groups it solely owns (found through its memberships, so first), then its
// personal projects and stars, then its issues and merge requests (moved to the ghost user, or with
// `hard_delete` deleted with its notes; after the projects, so those go whole), its award emoji
// (likewise), then its memberships (users cannot import them), and last its feed events (deleted
// either way, whatever the steps before recorded). Users are deleted by the jobs worker
// (`functions/jobs`), which loads this root.
removeWithUser(
  async (user, { hardDelete }) => {
    if (hardDelete) for (const group of await soloOwnedGroups(user.id)) await runGroupDeletion(group.id);
  },
  forgetUser,
  removeAuthoredIssues,
  removeAuthoredMergeRequests,
  removeUserAwards,
  (user) => removeAllMembershipsOf(user.id),
  removeUserEvents,
);

/** Exactly the routes of one group, each implemented. */
export type GroupRouteTable<G extends GroupName> = { [K in RouteKeyOf<G>]: AnyRoute };

export function apiHandler<G extends GroupName>(group: G, routes: GroupRouteTable<G>) {
  return createGroupHandler({ group, prefix: routePrefix(group), keys: routeKeysOf(group) }, routes, [authenticate(), trackActivity()]);
}
