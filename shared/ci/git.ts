/**
 * What the CI feature reads from a project's repository: a commit (for the pipeline's `commit`),
 * the configuration file of its tree (the project's `ci_config_path`, `.gitlab-ci.yml` by
 * default), the files it includes (`include: local` at that commit, `include: project` from a
 * project the pipeline's user may download code of), and whether a ref is protected. Reads objects through the repository feature's `openRepository`; parses only
 * commit headers and the tree levels of the paths it is asked for.
 */
import { can, type ProjectSubject } from '../auth';
import { NotFoundError } from '../platform/http/errors';
import { ciSettingsOf, findProjectOrNotFound, getProject, projectFullPath, type Project } from '../projects';
import { BranchRules, openRepository, TagRules, type Repository } from '../repository';
import type { User } from '../users';
import type { IncludeReader, IncludeSource, ProjectAtRef } from './config/includes';
import type { CommitSnapshot } from './store/pipelines';
import { isMergeRequestRef } from './merge-request-variables';
import { serverFqdn } from './server-variables';

/** GitLab's default configuration path (`Ci::Pipeline::DEFAULT_CONFIG_PATH`). */
export const CI_CONFIG_PATH = '.gitlab-ci.yml';

/** The project's configuration path, `.gitlab-ci.yml` when it sets none (GitLab's `ci_config_path_or_default`: what `CI_CONFIG_PATH` gives). */
export function configPathOf(project: Project): string {
  return ciSettingsOf(project).ciConfigPath || CI_CONFIG_PATH;
}

/** A project's protected branches or tags, read once per request (keyed by kind and project). */
export type RefProtections = Map<string, Promise<BranchRules | TagRules>>;

/**
 * Whether a pipeline's ref is protected (GitLab's `protected_ref?`, `Project#protected_for?`: what
 * `ref_protected` runners, protected variables and `CI_COMMIT_REF_PROTECTED` go by): a branch
 * matching a protected branch name, a tag matching a protected tag name. `protections` keeps each
 * project's protections of a kind read once per request. A merge request's ref is not protected.
 */
export async function refProtected(target: { projectId: number; ref: string; tag: boolean }, protections: RefProtections = new Map()): Promise<boolean> {
  // A merge request pipeline's ref (`refs/merge-requests/<iid>/head`) is neither a branch nor a tag: never protected (GitLab's).
  if (isMergeRequestRef(target.ref)) return false;
  return (await rulesOf(target.projectId, target.tag, protections)).isProtected(target.ref);
}

/** A project's protected tags or branches, read once per `protections`. */
function rulesOf(projectId: number, tag: boolean, protections: RefProtections): Promise<BranchRules | TagRules> {
  const key = `${tag ? 'tag' : 'branch'}#${projectId}`;
  let rules = protections.get(key);
  if (!rules) {
    rules = tag ? TagRules.load(projectId) : BranchRules.load(projectId);
    protections.set(key, rules);
  }
  return rules;
}

/**
 * Whether a pipeline's or job's ref is open to `user` (GitLab's `protected_ref` condition of
 * `Ci::PipelinePolicy` and `Ci::BuildPolicy`, negated): a branch they may push or merge to
 * (`can_update_branch?`), a tag they may create (`can_create_tag?`). Whoever it is not open to may
 * not retry, cancel, play, erase or keep its jobs, nor retry or cancel the pipeline, nor read its
 * variables as the user who ran it. One Query (the project's protected branches or tags), shared
 * through `protections` with {@link refProtected} of the same request.
 */
export async function refOpenTo(user: User | null, subject: ProjectSubject, target: { ref: string; tag: boolean }, protections: RefProtections = new Map()): Promise<boolean> {
  const rules = await rulesOf(subject.project.id, target.tag, protections);
  if (rules instanceof TagRules) return rules.canCreate(user, subject, target.ref);
  return rules.canPush(user, subject, target.ref) || rules.canMerge(user, subject, target.ref);
}

function gitTime(signature: string): { name: string; email: string; date: string } {
  const match = /^(.*) <([^>]*)> (\d+) ([+-])(\d\d)(\d\d)$/.exec(signature.trim());
  if (!match) return { name: signature, email: '', date: new Date(0).toISOString() };
  const [, name, email, seconds, sign, hours, minutes] = match;
  const offset = (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
  const local = new Date((Number(seconds) + offset * 60) * 1000).toISOString().slice(0, 23);
  return { name, email, date: `${local}${sign}${hours}:${minutes}` };
}

function parseCommitBody(oid: string, body: Buffer): { tree: string; snapshot: CommitSnapshot } {
  const text = body.toString('utf8');
  const split = text.indexOf('\n\n');
  const headerLines = (split < 0 ? text : text.slice(0, split)).split('\n');
  const message = split < 0 ? '' : text.slice(split + 2);
  const header = (name: string) => headerLines.filter((line) => line.startsWith(`${name} `)).map((line) => line.slice(name.length + 1));
  const author = gitTime(header('author')[0] ?? '');
  const committer = gitTime(header('committer')[0] ?? '');
  return {
    tree: header('tree')[0] ?? '',
    snapshot: {
      id: oid,
      message,
      authorName: author.name,
      authorEmail: author.email,
      authoredDate: author.date,
      committerName: committer.name,
      committerEmail: committer.email,
      committedDate: committer.date,
      parentIds: header('parent'),
    },
  };
}

function treeEntry(body: Buffer, name: string): { mode: string; oid: string } | undefined {
  let i = 0;
  while (i < body.length) {
    const space = body.indexOf(0x20, i);
    const nul = body.indexOf(0x00, space);
    if (space < 0 || nul < 0) return undefined;
    const entryName = body.subarray(space + 1, nul).toString('utf8');
    const oid = body.subarray(nul + 1, nul + 21).toString('hex');
    if (entryName === name) return { mode: body.subarray(i, space).toString('latin1'), oid };
    i = nul + 21;
  }
  return undefined;
}

/** A branch's or tag's commit id, or undefined. */
export async function resolveRef(project: Project, ref: string): Promise<{ sha: string; tag: boolean } | undefined> {
  return refIn(await openRepository(project), ref);
}

/**
 * The commit a pipeline's ref points at now (GitLab's `project.commit(pipeline.ref)`): a branch, a
 * tag with `tag`, or a merge request's `refs/merge-requests/<iid>/head`; undefined when it is gone.
 */
export async function refHead(project: Project, ref: string, tag: boolean): Promise<string | undefined> {
  const name = isMergeRequestRef(ref) ? ref : `${tag ? 'refs/tags' : 'refs/heads'}/${ref}`;
  const found = await (await openRepository(project)).ref(name);
  return found ? (found.peeled ?? found.oid) : undefined;
}

async function refIn(repository: Repository, ref: string): Promise<{ sha: string; tag: boolean } | undefined> {
  const branch = await repository.ref(`refs/heads/${ref}`);
  if (branch) return { sha: branch.oid, tag: false };
  const tag = await repository.ref(`refs/tags/${ref}`);
  if (tag) return { sha: tag.peeled ?? tag.oid, tag: true };
  return undefined;
}

/**
 * Whether `revision` names a commit of the project (GitLab's `project.commit(revision)`): a
 * branch, a tag, or a full commit id.
 */
export async function commitExists(project: Project, revision: string): Promise<boolean> {
  return (await commitOf(project, revision)) !== undefined;
}

/** The commit id `revision` names ({@link commitExists}: a full commit id, a branch or a tag), or undefined. */
export async function commitOf(project: Project, revision: string): Promise<string | undefined> {
  const repository = await openRepository(project);
  if (/^[0-9a-f]{40}$/i.test(revision)) {
    const object = await repository.read(revision.toLowerCase());
    if (object?.type === 'commit') return revision.toLowerCase();
  }
  return (await refIn(repository, revision))?.sha;
}

/** The commit `sha` (GitLab's `project.commit(sha)`), undefined when the repository has none. */
export async function readCommit(project: Project, sha: string): Promise<CommitSnapshot | undefined> {
  if (!/^[0-9a-f]{40}$/i.test(sha)) return undefined;
  const object = await (await openRepository(project)).read(sha.toLowerCase());
  return object?.type === 'commit' ? parseCommitBody(sha.toLowerCase(), object.body).snapshot : undefined;
}

/**
 * The configuration a pipeline of commit `sha` starts from, as GitLab's `Gitlab::Ci::ProjectConfig`
 * finds it for the project's `ci_config_path` (`.gitlab-ci.yml` when unset), its sources in
 * GitLab's order: the file at that path in the commit (`Repository`); else, for a path
 * `file.yml@group/project` or `file.yml@group/project:ref`, an `include: project:` of that file
 * (`ExternalProject`: read with the pipeline user's rights when includes are resolved, so a project
 * they may not read fails the pipeline with the include's error); else, for an `http(s)` URL, an
 * `include: remote:` (`Remote`, which this service refuses as a yaml error). Undefined when none
 * applies: no configuration, as a missing `.gitlab-ci.yml`.
 */
export async function readCommitAndConfig(project: Project, sha: string, configPath: string = CI_CONFIG_PATH): Promise<{ commit: CommitSnapshot; config: string | undefined } | undefined> {
  const repository = await openRepository(project);
  const object = await repository.read(sha);
  if (!object || object.type !== 'commit') return undefined;
  const { tree, snapshot } = parseCommitBody(sha, object.body);
  const content = await fileInTree(repository, tree, configPath);
  if (content !== undefined) return { commit: snapshot, config: content.toString('utf8') };
  return { commit: snapshot, config: configIncluding(configPath) };
}

/** The configuration a `ci_config_path` naming another project's file or a URL stands for (JSON is YAML), else undefined. */
function configIncluding(configPath: string): string | undefined {
  if (/^.+(yml|yaml)@.+$/.test(configPath)) {
    const at = configPath.indexOf('@');
    const [project, ref] = splitOnce(configPath.slice(at + 1), ':');
    return JSON.stringify({ include: [{ project, file: configPath.slice(0, at), ...(ref ? { ref } : {}) }] });
  }
  if (/^https?:\/\/\S+$/i.test(configPath)) return JSON.stringify({ include: [{ remote: configPath }] });
  return undefined;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const index = text.indexOf(separator);
  return index < 0 ? [text, undefined] : [text.slice(0, index), text.slice(index + 1)];
}

/** The blob at `path` of a commit's tree (directories walked one level at a time); undefined when absent. */
async function fileAt(repository: Repository, sha: string, path: string): Promise<Buffer | undefined> {
  const commit = await repository.read(sha);
  if (!commit || commit.type !== 'commit') return undefined;
  return fileInTree(repository, parseCommitBody(sha, commit.body).tree, path);
}

async function fileInTree(repository: Repository, treeOid: string, path: string): Promise<Buffer | undefined> {
  let oid = treeOid;
  const segments = path.split('/');
  for (const [index, segment] of segments.entries()) {
    const tree = await repository.read(oid);
    const entry = tree?.type === 'tree' ? treeEntry(tree.body, segment) : undefined;
    if (!entry) return undefined;
    const isTree = entry.mode.startsWith('4');
    if (isTree !== index < segments.length - 1) return undefined;
    oid = entry.oid;
  }
  const blob = await repository.read(oid);
  return blob?.type === 'blob' ? blob.body : undefined;
}

/**
 * The reader `include:` resolves files with, for a pipeline of `project` created by `user`
 * (GitLab's `download_code` on an included project, as `External::File::Project` checks it).
 * Repositories are opened once per project.
 */
export function includeReader(project: Project, user: User | null): IncludeReader {
  const repositories = new Map<number, Promise<Repository | undefined>>([[project.id, openRepository(project)]]);
  const repositoryOf = (projectId: number) => {
    let repository = repositories.get(projectId);
    if (!repository) {
      repository = getProject(projectId).then((found) => (found ? openRepository(found) : undefined));
      repositories.set(projectId, repository);
    }
    return repository;
  };
  return {
    serverFqdn: serverFqdn(),
    async readFile(source: IncludeSource, path: string): Promise<string | undefined> {
      const repository = await repositoryOf(source.projectId);
      const content = repository && (await fileAt(repository, source.sha, path));
      return content?.toString('utf8');
    },
    async projectAt(fullPath: string, ref: string | undefined): Promise<ProjectAtRef> {
      let subject;
      try {
        subject = await findProjectOrNotFound(fullPath, user);
      } catch (error) {
        if (error instanceof NotFoundError) return { result: 'project_not_found' };
        throw error;
      }
      if (!can(user, 'download_code', subject)) return { result: 'project_not_found' };
      const included = subject.project;
      const repository = await openRepository(included);
      repositories.set(included.id, Promise.resolve(repository));
      const resolved = await refIn(repository, ref ?? included.defaultBranch);
      const includedPath = projectFullPath(subject.namespace, included);
      if (resolved) return { result: 'found', source: { projectId: included.id, sha: resolved.sha, fullPath: includedPath } };
      // A commit id names itself (GitLab's `project.commit(ref)`).
      if (ref && /^[0-9a-f]{40}$/i.test(ref) && (await repository.read(ref.toLowerCase()))?.type === 'commit') {
        return { result: 'found', source: { projectId: included.id, sha: ref.toLowerCase(), fullPath: includedPath } };
      }
      return { result: 'ref_not_found' };
    },
  };
}
