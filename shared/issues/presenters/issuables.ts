/**
 * Fields GitLab's issue and merge request entities share (`IssuableReferences`, `Taskable`):
 * their references and the state of their description's task list.
 */

/**
 * Where a reference is written from (GitLab's `to_reference(from)`): a project or a group, by
 * full path. Without one (the caller's own lists, `GET /issues`), the short form.
 */
export type ReferenceFrom = { project: string } | { group: string } | undefined;

/** Internal: a full path's namespace and own path (`group/sub/project` → `group/sub`, `project`). */
function split(fullPath: string): { namespace: string; path: string } {
  const cut = fullPath.lastIndexOf('/');
  return { namespace: fullPath.slice(0, cut), path: fullPath.slice(cut + 1) };
}

/**
 * GitLab's `references` of an issue (`#`) or a merge request (`!`) of the project at `fullPath`:
 * `short`, `full`, and `relative` to `from` (GitLab's `Project#to_reference_base`): from the same
 * project the short form, from another project of the same namespace the project's path, from a
 * group its projects' path when they are directly in it, else the full path.
 *
 * @example
 * issuableReferences('#', 3, 'acme/web', { group: 'acme' })
 * // { short: '#3', relative: 'web#3', full: 'acme/web#3' }
 */
export function issuableReferences(sigil: '#' | '!', iid: number, fullPath: string, from: ReferenceFrom) {
  const short = `${sigil}${iid}`;
  const full = `${fullPath}${short}`;
  const { namespace, path } = split(fullPath);
  const sameNamespace = (other: string) => (other === namespace ? `${path}${short}` : full);
  const relative = from === undefined ? short : 'group' in from ? sameNamespace(from.group) : from.project === fullPath ? short : sameNamespace(split(from.project).namespace);
  return { short, relative, full };
}

/**
 * A task list item of a description (GitLab's `Taskable::ITEM_PATTERN`): a list item (`-`, `+`,
 * `*` or `1.`, also quoted) whose text starts with a checkbox, `[ ]` or `[x]`, and goes on.
 */
const TASK_ITEM = /^(?:>\s{0,4})*(?:\s*(?:[-+*]|\d+\.))+\s+(\[\s\]|\[[xX]\])\s.+/gm;

/**
 * GitLab's `task_completion_status`: how many task list items the description has, and how many
 * of them are checked.
 *
 * @example
 * taskCompletionStatus('- [x] one\n- [ ] two\n') // { count: 2, completed_count: 1 }
 */
export function taskCompletionStatus(description: string | null): { count: number; completed_count: number } {
  const boxes = [...(description ?? '').matchAll(TASK_ITEM)].map((match) => match[1]);
  return { count: boxes.length, completed_count: boxes.filter((box) => /[xX]/.test(box)).length };
}
