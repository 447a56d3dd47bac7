/**
 * The smart HTTP addresses of a repository, as git clients build them from a clone URL:
 * `/<namespace>/<project>.git/info/refs?service=…`, `/<namespace>/<project>.git/git-upload-pack`
 * and `…/git-receive-pack`, with or without `.git`, under nested groups.
 */
export type GitService = 'git-upload-pack' | 'git-receive-pack';

/** `wiki`: the project's wiki repository (`<namespace>/<project>.wiki.git`), `projectPath` without `.wiki`. */
export type GitAddress =
  | { projectPath: string; wiki: boolean; action: 'advertise'; service: GitService }
  | { projectPath: string; wiki: boolean; action: 'rpc'; service: GitService };

const WIKI_SUFFIX = '.wiki';

const SUFFIX = /^(.+?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/;

/**
 * The repository and action a request addresses, or undefined when it is not a smart HTTP request
 * (any other path, method or service: the caller answers 404, as for any unknown page).
 */
export function parseGitAddress(method: string, path: string, service: string | undefined): GitAddress | undefined {
  const match = SUFFIX.exec(path.replace(/^\/+/, ''));
  if (!match) return undefined;
  const [, repositoryPath, action] = match;
  if (!repositoryPath.includes('/')) return undefined;
  // As GitLab's routes: a path ending in `.wiki` is the wiki of the project before it.
  const wiki = repositoryPath.toLowerCase().endsWith(WIKI_SUFFIX);
  const projectPath = wiki ? repositoryPath.slice(0, -WIKI_SUFFIX.length) : repositoryPath;
  if (action === 'info/refs') {
    if ((method !== 'GET' && method !== 'HEAD') || (service !== 'git-upload-pack' && service !== 'git-receive-pack')) return undefined;
    return { projectPath, wiki, action: 'advertise', service };
  }
  if (method !== 'POST') return undefined;
  return { projectPath, wiki, action: 'rpc', service: action as GitService };
}
