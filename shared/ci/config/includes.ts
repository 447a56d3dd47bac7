/**
 * `include:` of `.gitlab-ci.yml`, resolved as GitLab's `Gitlab::Ci::Config::External` does before
 * the configuration is validated: each included file is read (`local:` from the repository at the
 * pipeline's commit, `project:` + `file:` from a project the pipeline's user may read, at `ref:` or
 * its default branch), its own includes expanded the same way (a `local:` include in a file of
 * another project reads that project), then the files are deep-merged in order and the including
 * file's keys deep-merged over them; `include` itself is removed. `rules:` on an include are
 * evaluated with the pipeline's variables (`exists`/`changes` taken as met, as for jobs); then the
 * variables in the locations' strings are expanded with them (GitLab's `VariablesExpander`: an
 * unknown one expands to nothing), a masked variable's value shown as `x`s in errors.
 *
 * `component:` (GitLab's `Ci::Components::FetchService`): `<this server's FQDN>/<project path>/<name>@<version>`
 * reads `templates/<name>.yml`, else `templates/<name>/template.yml`, of that project at the version:
 * a tag, a branch or a commit SHA. This service has no CI/CD Catalog, so `~latest` and partial
 * semantic versions (`1`, `1.2`) get GitLab's answer for a project that is not a catalog resource.
 *
 * Bounded as GitLab: at most {@link MAX_INCLUDES} files in the whole tree (which also bounds the
 * nesting), and {@link MAX_TOTAL_BYTES} of included YAML. `artifact:` + `job:` (a child pipeline's
 * only) reads a file of a parent pipeline job's artifacts archive. `remote:` and `template:` are
 * refused with a yaml error: this service fetches no URL and ships no templates. Errors are GitLab's messages, returned (never thrown), for the pipeline's
 * `yaml_errors`. Pure apart from the {@link IncludeReader} it is given.
 */
import { expandVariables } from './expand';
import { deepMerge, loadCiYaml, matchingRule, type RuleDefinition } from './parse';

/** Where files are read: a project of this service at a commit. */
export interface IncludeSource {
  projectId: number;
  sha: string;
  /** The project's full path, when the caller knows it (what the CI Lint API's `includes` name). */
  fullPath?: string;
}

/**
 * A file the configuration included, as GitLab's `File::Base#metadata` describes it (the CI Lint
 * API's `includes`): its kind (`local`, `file` for a `project:` include, `component`, `artifact`),
 * its location as written (masked), the include's other keys, where it was read and which file
 * included it.
 */
export interface IncludedFileRecord {
  type: 'local' | 'file' | 'component' | 'artifact';
  location: string;
  extra: Record<string, unknown>;
  /** Where it was read (project and commit). */
  source: IncludeSource;
  /** The project and commit of the file that included it. */
  context: IncludeSource;
}

export type ProjectAtRef =
  | { result: 'found'; source: IncludeSource }
  /** No such project, or the pipeline's user may not read its code. */
  | { result: 'project_not_found' }
  | { result: 'ref_not_found' };

/** What resolving includes reads. */
export interface IncludeReader {
  /** The text of a file of a commit; undefined when there is no file at that path. */
  readFile(source: IncludeSource, path: string): Promise<string | undefined>;
  /** A project by full path at a ref (undefined: its default branch), if the pipeline's user may read its code. */
  projectAt(fullPath: string, ref: string | undefined): Promise<ProjectAtRef>;
  /** This server's host, with its port when not the protocol's (GitLab's `server_fqdn`): a component's address starts with it. */
  serverFqdn: string;
  /**
   * A file of the artifacts archive of the parent pipeline's latest job of that name (`include:
   * artifact:`): given only while a child pipeline is created (a trigger job's `trigger:include`).
   */
  parentArtifact?(jobName: string, path: string): Promise<ArtifactFile>;
}

export type ArtifactFile =
  | { result: 'found'; text: string }
  /** The parent pipeline has no such job with an artifacts archive that can be downloaded. */
  | { result: 'no_job' }
  /** GitLab's `ArtifactFileReader` error (archive too large, no such path, a directory). */
  | { result: 'unreadable'; message: string };

export type IncludesResult = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** GitLab's default `ci_max_includes`: files included in one pipeline's configuration, nested ones counted. */
export const MAX_INCLUDES = 150;
/** The most bytes of included YAML (GitLab's `ci_max_total_yaml_size_bytes`, smaller here: a Lambda's memory). */
export const MAX_TOTAL_BYTES = 4 * 1024 * 1024;

const FILE_TYPES = ['local', 'project', 'remote', 'template', 'artifact', 'component'] as const;
const YAML_EXTENSION = /.+\.(yml|yaml)$/i;
/** A component version GitLab resolves only among a catalog resource's published versions. */
const SHORTHAND_SEMVER = /^\d+(\.\d+)?$/;
/** The keys of an include whose strings are expanded (`rules:` is evaluated before, `inputs:` is given to the file as is). */
const EXPANDED_KEYS = new Set<string>([...FILE_TYPES, 'file', 'ref', 'job']);

type Hash = Record<string, unknown>;
const isHash = (value: unknown): value is Hash => typeof value === 'object' && value !== null && !Array.isArray(value);

class IncludeError extends Error {}

interface State {
  /** Every file included, in the order they are read (when the caller asked for them). */
  included?: IncludedFileRecord[];
  reader: IncludeReader;
  variables: Record<string, string>;
  masked: ReadonlySet<string>;
  files: number;
  bytes: number;
}

/**
 * Expands the `include:` of a loaded configuration (a hash, as `loadCiYaml` gives it) read from
 * `source`; the value without includes is returned as is.
 *
 * @example
 * const loaded = loadCiYaml(text);
 * const expanded = loaded.ok ? await expandIncludes(loaded.value, { projectId, sha }, reader, variables) : loaded;
 * const parsed = expanded.ok ? buildCiConfig(expanded.value) : expanded;
 */
export async function expandIncludes(
  value: Record<string, unknown>,
  source: IncludeSource,
  reader: IncludeReader,
  variables: Record<string, string> = {},
  masked: ReadonlySet<string> = new Set(),
  included?: IncludedFileRecord[],
): Promise<IncludesResult> {
  try {
    return { ok: true, value: await expand(value, source, { reader, variables, masked, files: 0, bytes: 0, included }) };
  } catch (error) {
    if (error instanceof IncludeError) return { ok: false, error: error.message };
    throw error;
  }
}

async function expand(value: Hash, source: IncludeSource, state: State): Promise<Hash> {
  if (value.include === undefined || value.include === null) {
    const { include: _include, ...rest } = value;
    return rest;
  }
  const locations = (Array.isArray(value.include) ? value.include : [value.include]).filter((location) => location !== null && location !== undefined);
  let content: Hash = {};
  for (const location of locations) {
    for (const file of await filesOf(location, source, state)) {
      if (state.files >= MAX_INCLUDES) throw new IncludeError(`Maximum of ${MAX_INCLUDES} nested includes are allowed!`);
      state.files += 1;
      state.included?.push({ ...file.record, source: file.source, context: source });
      content = deepMerge(content, await loadFile(file, state));
    }
  }
  const { include: _include, ...own } = value;
  return deepMerge(content, own);
}

/** One file to include: where it is read, its path, and how its errors name it. */
interface IncludedFile {
  source: IncludeSource;
  path: string;
  /** The include's `inputs:`, for the file's `spec:inputs` header. */
  inputs?: Record<string, unknown>;
  missing: string;
  empty: string;
  /** The file's text when finding it read it already (a component's). */
  text?: string;
  /** How the CI Lint API describes it. */
  record: Pick<IncludedFileRecord, 'type' | 'location' | 'extra'>;
}

/** The files one `include:` entry names, normalised (GitLab's mapper: normalizer, filter, matcher), checked but not read. */
async function filesOf(location: unknown, source: IncludeSource, state: State): Promise<IncludedFile[]> {
  const given: Hash = typeof location === 'string' ? (/^https?:\/\//i.test(location) ? { remote: location } : { local: location }) : isHash(location) ? location : {};
  if (!isHash(location) && typeof location !== 'string') {
    throw new IncludeError(`\`${JSON.stringify(location)}\` does not have a valid subkey for include. Valid subkeys are: ${FILE_TYPES.map((t) => `\`${t}\``).join(', ')}`);
  }
  if (given.rules !== undefined && !includeRulesAllow(given.rules, state.variables)) return [];
  const entry = expandLocation(given, state.variables);
  const shown = (text: string) => maskSecrets(text, state);
  const matching = FILE_TYPES.filter((type) => (type === 'project' ? entry.project !== undefined && entry.file !== undefined : entry[type] !== undefined && entry[type] !== null));
  if (matching.length === 0) {
    throw new IncludeError(`\`${shown(JSON.stringify(entry))}\` does not have a valid subkey for include. Valid subkeys are: ${FILE_TYPES.map((t) => `\`${t}\``).join(', ')}`);
  }
  if (matching.length > 1) throw new IncludeError(`Each include must use only one of: ${FILE_TYPES.map((t) => `\`${t}\``).join(', ')}`);
  if (entry.inputs !== undefined && entry.inputs !== null && !isHash(entry.inputs)) throw new IncludeError('include inputs config should be a hash');
  const inputs = isHash(entry.inputs) ? { inputs: entry.inputs } : {};
  switch (matching[0]) {
    case 'local': {
      const path = checkedPath(entry.local);
      const { local: _local, ...extra } = entry;
      return [{ source, path, ...inputs, record: { type: 'local', location: shown(path), extra }, missing: `Local file \`${shown(path)}\` does not exist!`, empty: `Local file \`${shown(path)}\` is empty!` }];
    }
    case 'component':
      return [{ ...(await componentFile(entry.component, state)), ...inputs, record: { type: 'component', location: shown(String(entry.component)), extra: {} } }];
    case 'project': {
      const name = String(Array.isArray(entry.project) ? entry.project[0] : entry.project).replace(/^\/+/, '').toLowerCase();
      const label = shown(name);
      const paths = (Array.isArray(entry.file) ? entry.file : [entry.file]).map(checkedPath);
      const ref = entry.ref === undefined || entry.ref === null ? undefined : String(entry.ref);
      const found = await state.reader.projectAt(name, ref === 'HEAD' ? undefined : ref);
      if (found.result === 'project_not_found') {
        throw new IncludeError(`Project \`${label}\` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.`);
      }
      if (found.result === 'ref_not_found') throw new IncludeError(`Project \`${label}\` reference \`${shown(ref ?? 'HEAD')}\` does not exist!`);
      return paths.map((path) => ({
        source: found.source,
        path,
        ...inputs,
        record: { type: 'file' as const, location: shown(path), extra: { project: label, ref: shown(ref ?? 'HEAD') } },
        missing: `Project \`${label}\` file \`${shown(path)}\` does not exist!`,
        empty: `Project \`${label}\` file \`${shown(path)}\` is empty!`,
      }));
    }
    case 'remote':
      throw new IncludeError(`Remote file \`${String(entry.remote)}\` could not be included: \`include:remote\` is not supported on this server!`);
    case 'template':
      throw new IncludeError(`Template file \`${String(entry.template)}\` could not be included: \`include:template\` is not supported on this server!`);
    default:
      return [{ ...(await artifactFile(entry, source, state)), ...inputs, record: { type: 'artifact', location: shown(String(entry.artifact)), extra: { job_name: entry.job } } }];
  }
}

/** An include with the variables in its strings expanded (GitLab's `VariablesExpander`, after `rules:`): a new hash, the configuration's own left as it is. */
function expandLocation(entry: Hash, variables: Record<string, string>): Hash {
  const expand = (value: unknown) => (typeof value === 'string' ? expandVariables(value, variables) : value);
  return Object.fromEntries(
    Object.entries(entry).map(([key, value]) => [key, !EXPANDED_KEYS.has(key) ? value : Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? expand(item) : item)) : expand(value)]),
  );
}

/** `text` as GitLab shows a location in an error (`mask_variables_from`): each masked variable's value replaced by as many `x`. */
function maskSecrets(text: string, state: State): string {
  let shown = text;
  for (const name of state.masked) {
    const value = state.variables[name];
    if (value) shown = shown.split(value).join('x'.repeat(value.length));
  }
  return shown;
}

/**
 * The file a `component:` include names (GitLab's `InstancePath` and `ComponentsProject`): the
 * project is the address's path up to its last `/` (after this server's FQDN), the component the
 * rest; its `templates/<name>.yml`, else `templates/<name>/template.yml`, at the version.
 */
async function componentFile(address: unknown, state: State): Promise<Omit<IncludedFile, 'inputs' | 'record'>> {
  if (typeof address !== 'string') throw new IncludeError(`Included file \`${maskSecrets(JSON.stringify(address), state)}\` needs to be a string`);
  const error = (reason: string) => new IncludeError(`Component '${maskSecrets(address, state)}' - ${reason}`);
  const prefix = `${state.reader.serverFqdn}/`;
  if (!address.includes('@') || !address.startsWith(prefix)) throw error('the component path is not supported');
  const at = address.indexOf('@');
  const path = address.slice(prefix.length, at);
  const version = address.slice(at + 1);
  const slash = path.lastIndexOf('/');
  const contentNotFound = error('content not found');
  if (path.startsWith('/') || slash <= 0) throw contentNotFound;
  const name = path.slice(slash + 1);
  // No project is a CI/CD Catalog resource here: GitLab's answers for such a project.
  const catalogOnly =
    version === '~latest'
      ? 'The ~latest version reference is not supported for non-catalog resources. Use a tag, branch, or commit SHA instead.'
      : SHORTHAND_SEMVER.test(version)
        ? 'The partial semantic version reference is not supported for non-catalog resources. Use a tag, branch, or commit SHA instead.'
        : undefined;
  const found = await state.reader.projectAt(path.slice(0, slash).toLowerCase(), catalogOnly ? undefined : version);
  if (found.result === 'project_not_found') throw error("project does not exist or you don't have sufficient permissions");
  if (catalogOnly) throw error(catalogOnly);
  if (found.result === 'ref_not_found' || name === '' || name.includes('/')) throw contentNotFound;
  for (const candidate of [`templates/${name}.yml`, `templates/${name}/template.yml`]) {
    const text = await state.reader.readFile(found.source, candidate);
    if (text !== undefined) return { source: found.source, path: candidate, text, missing: contentNotFound.message, empty: contentNotFound.message };
  }
  throw contentNotFound;
}

/**
 * The file an `artifact:` include names (GitLab's `External::File::Artifact` and
 * `ArtifactFileReader`), read; its own `local:` includes read the pipeline's commit.
 */
async function artifactFile(entry: Hash, source: IncludeSource, state: State): Promise<Omit<IncludedFile, 'inputs' | 'record'>> {
  const path = checkedPath(entry.artifact);
  const read = state.reader.parentArtifact;
  if (!read) throw new IncludeError('Including configs from artifacts is only allowed when triggering child pipelines');
  if (typeof entry.job !== 'string' || entry.job.trim() === '') throw new IncludeError('Job must be provided when including configs from artifacts');
  const found = await read(entry.job, path);
  if (found.result === 'no_job') throw new IncludeError(`Job \`${maskSecrets(entry.job, state)}\` not found in parent pipeline or does not have artifacts!`);
  if (found.result === 'unreadable') throw new IncludeError(found.message);
  const empty = `File \`${maskSecrets(path, state)}\` is empty!`;
  return { source, path, text: found.text, missing: empty, empty };
}

/** A location as GitLab checks it (`File::Base#validate_location!`): a string with a YAML extension, leading slashes dropped. */
function checkedPath(location: unknown): string {
  if (typeof location !== 'string') throw new IncludeError(`Included file \`${JSON.stringify(location)}\` needs to be a string`);
  const path = location.replace(/^\/+/, '');
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (!YAML_EXTENSION.test(name)) throw new IncludeError(`Included file \`${path}\` does not have YAML extension!`);
  return path;
}

/** `include: rules:` (`if:` only; `exists`/`changes` taken as met): whether the file is included. */
function includeRulesAllow(rules: unknown, variables: Record<string, string>): boolean {
  if (!Array.isArray(rules) || !rules.every(isHash)) throw new IncludeError('include rules config should be an array of hashes');
  const definitions: RuleDefinition[] = rules.map((rule) => ({
    ...(typeof rule.if === 'string' ? { if: rule.if } : {}),
    ...(typeof rule.when === 'string' ? { when: rule.when as RuleDefinition['when'] } : {}),
  }));
  const rule = matchingRule(definitions, variables);
  return rule !== undefined && rule.when !== 'never';
}

/** Reads, loads and expands one included file. */
async function loadFile(file: IncludedFile, state: State): Promise<Hash> {
  const text = file.text ?? (await state.reader.readFile(file.source, file.path));
  if (text === undefined) throw new IncludeError(file.missing);
  if (text.trim() === '') throw new IncludeError(file.empty);
  state.bytes += Buffer.byteLength(text, 'utf8');
  if (state.bytes > MAX_TOTAL_BYTES) throw new IncludeError('Total size of combined CI/CD configuration is too big');
  const loaded = loadCiYaml(text, { inputs: file.inputs, variables: state.variables, masked: state.masked });
  if (!loaded.ok) throw new IncludeError(loaded.syntax ? `Included file \`${file.path}\` does not have valid YAML syntax!` : `\`${file.path}\`: ${loaded.error}`);
  return expand(loaded.value, file.source, state);
}
