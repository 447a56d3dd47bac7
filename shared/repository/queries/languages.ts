/**
 * `GET /projects/:id/languages`: the share of each language in the default branch's files, by
 * bytes (`languages-rules.ts` says which file counts for which language). Computed once per head
 * commit: the tree is walked and only the blobs of files that count are read; the answer is kept
 * in the project's partition (`store/languages.ts`), so a repeat at the same head is one read.
 */
import type { Project } from '../../projects';
import { getLanguageStatistics, putLanguageStatistics } from '../store/languages';
import { isTreeEntry, type ObjectReader } from './objects';
import { resolveCommit } from './revisions';

/** Most files read for one computation: past it the shares are those of the files read (deterministic: tree order). */
export const MAX_LANGUAGE_FILES = 20_000;

/** Regular files (`100644`, `100755`): symlinks and submodules are not code. */
const isRegularFile = (mode: string): boolean => mode === '100644' || mode === '100755';

/**
 * The project's languages (`{"Ruby": 66.69, "JavaScript": 22.98}`, largest first); `{}` for an
 * empty repository or a default branch that does not exist.
 */
export async function projectLanguages(reader: ObjectReader, project: Project): Promise<Record<string, number>> {
  const head = await resolveCommit(reader, project, project.defaultBranch);
  if (!head) return {};
  const cached = await getLanguageStatistics(project.id);
  if (cached?.commit === head.id) return cached.shares;
  // The language rules (linguist's table, ~160 KB) are loaded by the first computation in a process, not at cold start.
  const { isBinary, languageOf, languageShares } = await import('../languages-rules');
  const bytes: Record<string, number> = {};
  let files = 0;
  const walk = async (tree: string, prefix: string): Promise<void> => {
    for (const entry of (await reader.tree(tree)) ?? []) {
      if (files >= MAX_LANGUAGE_FILES) return;
      const path = `${prefix}${entry.path}`;
      if (isTreeEntry(entry)) {
        await walk(entry.oid, `${path}/`);
        continue;
      }
      const language = isRegularFile(entry.mode.padStart(6, '0')) ? languageOf(path) : undefined;
      if (!language) continue;
      files++;
      const content = await reader.blob(entry.oid);
      if (content && !isBinary(content)) bytes[language] = (bytes[language] ?? 0) + content.length;
    }
  };
  await walk(head.tree, '');
  const shares = languageShares(bytes);
  await putLanguageStatistics(project.id, { commit: head.id, shares });
  return shares;
}
