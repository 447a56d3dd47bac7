/** A project's full path, `namespace/project` (GitLab's `path_with_namespace`): responses, URLs, and the namespace path a subgroup must not take. */
export function projectFullPath(namespace: { fullPath: string }, project: { path: string }): string {
  return `${namespace.fullPath}/${project.path}`;
}
