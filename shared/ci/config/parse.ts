/**
 * `.gitlab-ci.yml` as GitLab reads it (`Gitlab::Ci::Config`): YAML (anchors, aliases and `<<`
 * merge keys) → `extends` resolved (deep merge of hashes, up to 11 levels) → `default:` and the
 * deprecated global keywords applied → each visible job normalised and checked. A file that does
 * not parse or validate gives GitLab's error message (the pipeline's `yaml_errors`), never an
 * exception. Which jobs a pipeline gets (`only`/`except`/`rules`) is {@link selectJobs}'s. Pure.
 */
import { PIPELINE_NAME_MAX } from '../pipeline-name';
import { parseAllDocuments, type Document } from 'yaml';
import { parseDuration } from './durations';
import { evaluateExpression, ExpressionError } from './expressions';
import { fabricateRubySyntax } from './untrusted-regexp';
import { interpolate } from './inputs';

export type When = 'on_success' | 'on_failure' | 'always' | 'manual' | 'never' | 'delayed';

export interface ArtifactsDefinition {
  name?: string;
  paths: string[];
  exclude: string[];
  untracked: boolean;
  when: 'on_success' | 'on_failure' | 'always';
  expireIn?: string;
  /** `reports:` the runner uploads apart from the archive (only `junit` is read; others are accepted and not uploaded). */
  reports?: { junit?: string[] };
}

export interface CacheDefinition {
  key: string;
  paths: string[];
  untracked: boolean;
  policy: string;
  when: string;
}

export interface ImageDefinition {
  name: string;
  entrypoint?: string[];
  alias?: string;
  command?: string[];
}

export interface RuleDefinition {
  if?: string;
  when?: When;
  allowFailure?: boolean;
  variables?: Record<string, string>;
  /** `workflow: rules:`' `auto_cancel` (a workflow rule's own, over the workflow's). */
  autoCancel?: AutoCancelDefinition;
}

/** `workflow:auto_cancel` (GitLab's `Entry::AutoCancel`): what a newer commit and a failed job cancel. */
export interface AutoCancelDefinition {
  onNewCommit?: OnNewCommit;
  onJobFailure?: OnJobFailure;
}

/** Values as GitLab's `Ci::PipelineMetadata` enums list them (their order is its message's). */
export const ON_NEW_COMMIT = ['conservative', 'interruptible', 'none'] as const;
export const ON_JOB_FAILURE = ['none', 'all'] as const;
export type OnNewCommit = (typeof ON_NEW_COMMIT)[number];
export type OnJobFailure = (typeof ON_JOB_FAILURE)[number];

/** A pipeline's auto-cancel settings, GitLab's defaults filled in (`conservative`, `none`). */
export interface AutoCancelSettings {
  onNewCommit: OnNewCommit;
  onJobFailure: OnJobFailure;
}

export interface RefFilter {
  refs?: string[];
  variables?: string[];
}

/** One job of the file, normalised (defaults applied); what a pipeline's job is made of. */
export interface JobDefinition {
  name: string;
  stage: string;
  stageIdx: number;
  script: string[];
  beforeScript: string[];
  afterScript: string[];
  image?: ImageDefinition;
  services: ImageDefinition[];
  /** Global variables, then the job's. */
  variables: Record<string, string>;
  when: When;
  allowFailure: boolean;
  /** `allow_failure: { exit_codes: [...] }`. */
  allowFailureExitCodes?: number[];
  tags: string[];
  artifacts?: ArtifactsDefinition;
  /** Jobs whose artifacts are passed (undefined: every job of earlier stages). */
  dependencies?: string[];
  /** `needs:` (undefined: the stage order decides). */
  needs?: Array<{ name: string; artifacts: boolean; optional: boolean }>;
  cache: CacheDefinition[];
  retry: { max: number; when: string[] };
  /** Seconds. */
  timeout?: number;
  interruptible: boolean;
  only?: RefFilter;
  except?: RefFilter;
  rules?: RuleDefinition[];
  environment?: string;
  /** `environment:`'s `url`, `action`, `deployment_tier`, `on_stop` and `auto_stop_in`, when it is a hash that gives them. */
  environmentOptions?: EnvironmentOptions;
  coverage?: string;
  release?: ReleaseDefinition;
  /** `trigger:` (GitLab's `Ci::Bridge`): the job starts a downstream pipeline instead of running on a runner. */
  trigger?: TriggerDefinition;
}

/**
 * A trigger job's `trigger:` (GitLab's `Entry::Trigger`): `include` (a child pipeline of the same
 * project, its configuration the files listed, as written: `config/includes.ts` reads them) or
 * `project` (a multi-project pipeline), `strategy: depend` (the job takes the downstream
 * pipeline's final status) and `forward` (what the downstream pipeline gets as its variables).
 */
export interface TriggerDefinition {
  include?: unknown[];
  project?: string;
  branch?: string;
  strategy?: 'depend';
  forward: { yamlVariables: boolean; pipelineVariables: boolean };
}

/** What a job's `environment:` says besides its name (the name and URL are expanded when the job is created). */
export interface EnvironmentOptions {
  url?: string;
  action?: string;
  deploymentTier?: string;
  /** The manual job of the same pipeline that stops the environment (`on_stop`). */
  onStop?: string;
  /** How long after a successful deployment the environment stops by itself (`auto_stop_in`, e.g. `1 day`). */
  autoStopIn?: string;
}

/** A job's `release:` keyword, as the file gives it (strings are passed to release-cli as written, variables expanded by the runner). */
export interface ReleaseDefinition {
  tagName: string;
  description: string;
  name?: string;
  tagMessage?: string;
  ref?: string;
  releasedAt?: string;
  milestones?: string[];
  links?: Array<Record<string, string>>;
}

export interface CiConfig {
  /** With `.pre` first and `.post` last, as GitLab's. */
  stages: string[];
  jobs: JobDefinition[];
  /** Global `variables:`. */
  variables: Record<string, string>;
  workflowRules?: RuleDefinition[];
  /** `workflow:auto_cancel`. */
  autoCancel?: AutoCancelDefinition;
  /** `workflow:name`, as written (its variables are expanded when a pipeline is created). */
  workflowName?: string;
}

export type ParseResult = { ok: true; config: CiConfig } | { ok: false; error: string };

const RESERVED = new Set(['image', 'services', 'stages', 'types', 'before_script', 'after_script', 'variables', 'cache', 'include', 'default', 'workflow']);
const DEFAULT_KEYS = new Set(['image', 'services', 'before_script', 'after_script', 'cache', 'tags', 'retry', 'timeout', 'interruptible', 'artifacts', 'hooks', 'id_tokens']);
const JOB_KEYS = new Set([
  'script', 'before_script', 'after_script', 'stage', 'type', 'image', 'services', 'variables', 'only', 'except', 'rules', 'when', 'allow_failure',
  'tags', 'artifacts', 'dependencies', 'needs', 'cache', 'retry', 'timeout', 'extends', 'interruptible', 'environment', 'coverage', 'start_in',
  'parallel', 'resource_group', 'release', 'trigger', 'inherit', 'hooks', 'id_tokens', 'secrets', 'pages', 'publish', 'manual_confirmation', 'run',
]);
/** The keys a trigger job takes (GitLab's `Entry::Bridge`: no `script`, no runner keywords). */
const BRIDGE_KEYS = new Set(['trigger', 'stage', 'type', 'extends', 'only', 'except', 'rules', 'variables', 'inherit', 'allow_failure', 'when', 'needs', 'resource_group', 'environment', 'start_in', 'parallel', 'interruptible']);
const WHEN_VALUES = new Set(['on_success', 'on_failure', 'always', 'manual', 'never', 'delayed']);
const MAX_EXTENDS_DEPTH = 11;

type Hash = Record<string, unknown>;

class ConfigError extends Error {}

const isHash = (value: unknown): value is Hash => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses and validates a `.gitlab-ci.yml` (without `include:`; see `includes.ts`). */
export function parseCiConfig(text: string): ParseResult {
  const loaded = loadCiYaml(text);
  return loaded.ok ? buildCiConfig(loaded.value) : { ok: false, error: loaded.error };
}

/** What a file's `spec:inputs` header receives: the inputs given, and the variables `expand_vars` reads. */
export interface InputArguments {
  inputs?: Record<string, unknown>;
  variables?: Readonly<Record<string, string>>;
  /** The names of the masked ones among `variables` (`expand_vars` refuses them). */
  masked?: ReadonlySet<string>;
}

/**
 * One file's YAML as a hash (anchors and merge keys resolved within the file), or GitLab's error
 * for a file that does not parse or is no hash. A file may start with a header document (`spec:`
 * then `---`): its `spec:inputs` are given `args` and interpolated into the rest (`inputs.ts`).
 * The first step of {@link parseCiConfig}, apart so that `include:` can merge several files before
 * the rest.
 */
export function loadCiYaml(text: string, args: InputArguments = {}): { ok: true; value: Record<string, unknown> } | { ok: false; error: string; syntax?: boolean } {
  let documents: { header?: Hash; content: Hash };
  try {
    documents = loadDocuments(text);
  } catch (error) {
    return { ok: false, error: error instanceof ConfigError ? error.message : 'Invalid configuration format', syntax: true };
  }
  return interpolate(documents.header, documents.content, args.inputs, args.variables ?? {}, args.masked);
}

/** Validates a configuration already loaded (and merged with its includes): the rest of {@link parseCiConfig}. */
export function buildCiConfig(value: Record<string, unknown>): ParseResult {
  try {
    return { ok: true, config: buildConfig(value) };
  } catch (error) {
    if (error instanceof ConfigError) return { ok: false, error: error.message };
    throw error;
  }
}

/** GitLab's `MultiDocYaml` (at most two documents, empty ones dropped) and its `Yaml::Documents`: a first document with `spec` is the header. */
function loadDocuments(text: string): { header?: Hash; content: Hash } {
  const documents = parseAllDocuments(text, { merge: true, uniqueKeys: false, prettyErrors: false });
  if (!Array.isArray(documents)) throw new ConfigError('Invalid configuration format');
  const values = documents.map(loadDocument).filter((value) => value !== null && value !== undefined);
  if (values.length > 2) throw new ConfigError('Invalid configuration format');
  const [first, last] = values;
  if (last !== undefined && isHash(first) && Object.hasOwn(first, 'spec')) {
    if (!isHash(last)) throw new ConfigError('Invalid configuration format');
    return { header: first, content: last };
  }
  if (!isHash(first)) throw new ConfigError('Invalid configuration format');
  return { content: first };
}

function loadDocument(document: Document.Parsed): unknown {
  const [error] = document.errors;
  if (error) {
    const [line, column] = error.linePos?.[0] ? [error.linePos[0].line, error.linePos[0].col] : [1, 1];
    const message = error.message.split('\n', 1)[0].replace(/ at line \d+, column \d+.*$/, '');
    throw new ConfigError(`(<unknown>): ${message.charAt(0).toLowerCase()}${message.slice(1)} at line ${line} column ${column}`);
  }
  try {
    return document.toJS({ maxAliasCount: 1000 });
  } catch (cause) {
    throw new ConfigError(`(<unknown>): ${(cause as Error).message.split('\n', 1)[0]}`);
  }
}

/** Deep merge as `extends` and `include:` do (ActiveSupport's `deep_merge`): hashes merged key by key, everything else replaced. */
export function deepMerge(base: Hash, override: Hash): Hash {
  const result: Hash = { ...base };
  for (const [key, value] of Object.entries(override)) {
    result[key] = isHash(value) && isHash(result[key]) ? deepMerge(result[key], value) : value;
  }
  return result;
}

function resolveExtends(root: Hash): Hash {
  const resolved = new Map<string, Hash>();
  const resolve = (name: string, chain: string[]): Hash => {
    const done = resolved.get(name);
    if (done) return done;
    const job = root[name];
    if (!isHash(job)) throw new ConfigError(`${chain[chain.length - 1] ?? name}: unknown key in \`extends\``);
    if (chain.includes(name)) throw new ConfigError(`${name}: circular dependency detected in \`extends\``);
    if (chain.length >= MAX_EXTENDS_DEPTH) throw new ConfigError(`${name}: nesting too deep in \`extends\``);
    const parents = job.extends === undefined ? [] : typeof job.extends === 'string' ? [job.extends] : job.extends;
    if (!Array.isArray(parents) || !parents.every((p) => typeof p === 'string')) {
      throw new ConfigError(`jobs:${name}:extends config should be an array of strings or a string`);
    }
    let merged: Hash = {};
    for (const parent of parents) {
      if (!isHash(root[parent])) throw new ConfigError(`${name}: unknown keys in \`extends\` (${parent})`);
      merged = deepMerge(merged, resolve(parent, [...chain, name]));
    }
    const { extends: _extends, ...own } = job;
    const result = deepMerge(merged, own);
    resolved.set(name, result);
    return result;
  };
  const out: Hash = {};
  for (const [key, value] of Object.entries(root)) out[key] = !RESERVED.has(key) && isHash(value) ? resolve(key, []) : value;
  return out;
}

const stringList = (value: unknown, where: string): string[] => {
  if (value === undefined || value === null) return [];
  const flat = (v: unknown): unknown[] => (Array.isArray(v) ? v.flatMap(flat) : [v]);
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? flat(value) : undefined;
  if (!list || !list.every((item) => typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean')) {
    throw new ConfigError(`${where} config should be a string or a nested array of strings up to 10 levels deep`);
  }
  return list.map(String);
};

function variablesOf(value: unknown, where: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isHash(value)) throw new ConfigError(`${where} config should be a hash of key value pairs`);
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (isHash(v)) out[key] = v.value === undefined || v.value === null ? '' : String(v.value);
    else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[key] = String(v);
    else if (v === null) out[key] = '';
    else throw new ConfigError(`${where} config should be a hash of key value pairs`);
  }
  return out;
}

function imageOf(value: unknown, where: string): ImageDefinition | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return { name: value };
  if (isHash(value) && typeof value.name === 'string') {
    return {
      name: value.name,
      ...(value.entrypoint !== undefined ? { entrypoint: stringList(value.entrypoint, `${where}:entrypoint`) } : {}),
      ...(typeof value.alias === 'string' ? { alias: value.alias } : {}),
      ...(value.command !== undefined ? { command: stringList(value.command, `${where}:command`) } : {}),
    };
  }
  throw new ConfigError(`${where} config should be a hash or a string`);
}

function servicesOf(value: unknown, where: string): ImageDefinition[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ConfigError(`${where} config should be a array`);
  return value.map((service, i) => imageOf(service, `${where}:service:${i}`)!);
}

function artifactsOf(value: unknown, where: string): ArtifactsDefinition | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isHash(value)) throw new ConfigError(`${where} config should be a hash`);
  const when = value.when ?? 'on_success';
  if (when !== 'on_success' && when !== 'on_failure' && when !== 'always') {
    throw new ConfigError(`${where}:when config should be on_success, on_failure or always`);
  }
  const expireIn = value.expire_in === undefined || value.expire_in === null ? undefined : String(value.expire_in);
  if (expireIn !== undefined && expireIn !== 'never' && parseDuration(expireIn) === undefined) {
    throw new ConfigError(`${where}:expire_in config should be a duration`);
  }
  return {
    ...(value.name !== undefined ? { name: String(value.name) } : {}),
    paths: stringList(value.paths, `${where}:paths`),
    exclude: stringList(value.exclude, `${where}:exclude`),
    untracked: value.untracked === true,
    when,
    ...(expireIn !== undefined ? { expireIn } : {}),
    ...reportsOf(value.reports, `${where}:reports`),
  };
}

/** `artifacts:reports:` (GitLab's `Entry::Reports`): a hash; `junit` a string or an array of strings. */
function reportsOf(value: unknown, where: string): { reports?: { junit: string[] } } {
  if (value === undefined || value === null) return {};
  if (!isHash(value)) throw new ConfigError(`${where} config should be a hash`);
  const junit = value.junit;
  if (junit === undefined || junit === null) return {};
  if (typeof junit === 'string') return { reports: { junit: [junit] } };
  if (!Array.isArray(junit) || !junit.every((path) => typeof path === 'string')) throw new ConfigError(`${where} junit should be an array of strings or a string`);
  return junit.length > 0 ? { reports: { junit } } : {};
}

/** The string keys of `release:` and of its asset links, as GitLab's `Entry::Release` allows them. */
const RELEASE_KEYS = new Set(['tag_name', 'tag_message', 'name', 'description', 'ref', 'released_at', 'milestones', 'assets']);
const RELEASE_LINK_KEYS = new Set(['name', 'url', 'filepath', 'direct_asset_path', 'link_type']);

/** A job's `release:` (GitLab's `Entry::Release`): `tag_name` and `description` required, every value a string. */
function releaseOf(value: unknown, where: string): ReleaseDefinition | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isHash(value)) throw new ConfigError(`${where} config should be a hash`);
  const unknown = Object.keys(value).filter((key) => !RELEASE_KEYS.has(key));
  if (unknown.length > 0) throw new ConfigError(`${where} config contains unknown keys: ${unknown.join(', ')}`);
  const text = (key: string): string | undefined => {
    const raw = value[key];
    if (raw === undefined || raw === null) return undefined;
    if (typeof raw !== 'string' && typeof raw !== 'number') throw new ConfigError(`${where}:${key} config should be a string`);
    return String(raw);
  };
  const tagName = text('tag_name');
  const description = text('description');
  if (!tagName) throw new ConfigError(`${where} tag name can't be blank`);
  if (!description) throw new ConfigError(`${where} description can't be blank`);
  const assets = value.assets;
  if (assets !== undefined && assets !== null && !(isHash(assets) && Array.isArray(assets.links))) throw new ConfigError(`${where}:assets config should be a hash with links`);
  const links = isHash(assets) && Array.isArray(assets.links)
    ? assets.links.map((link, i) => {
        if (!isHash(link) || typeof link.name !== 'string' || typeof link.url !== 'string') throw new ConfigError(`${where}:assets:links:${i} config should have a name and a url`);
        return Object.fromEntries(Object.entries(link).filter(([key]) => RELEASE_LINK_KEYS.has(key)).map(([key, field]) => [key, String(field)]));
      })
    : undefined;
  const optional = { name: text('name'), tagMessage: text('tag_message'), ref: text('ref'), releasedAt: text('released_at') };
  return {
    tagName,
    description,
    ...Object.fromEntries(Object.entries(optional).filter(([, field]) => field !== undefined)),
    ...(value.milestones !== undefined && value.milestones !== null ? { milestones: stringList(value.milestones, `${where}:milestones`) } : {}),
    ...(links && links.length > 0 ? { links } : {}),
  };
}

function cacheOf(value: unknown, where: string): CacheDefinition[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((cache) => {
    if (!isHash(cache)) throw new ConfigError(`${where} config should be a hash`);
    const key = isHash(cache.key) ? stringList(cache.key.files, `${where}:key:files`).join('-') || 'default' : cache.key === undefined ? 'default' : String(cache.key);
    return {
      key,
      paths: stringList(cache.paths, `${where}:paths`),
      untracked: cache.untracked === true,
      policy: typeof cache.policy === 'string' ? cache.policy : 'pull-push',
      when: typeof cache.when === 'string' ? cache.when : 'on_success',
    };
  });
}

function retryOf(value: unknown, where: string): { max: number; when: string[] } {
  if (value === undefined || value === null) return { max: 0, when: ['always'] };
  const max = typeof value === 'number' ? value : isHash(value) ? Number(value.max ?? 0) : NaN;
  if (!Number.isInteger(max) || max < 0 || max > 2) throw new ConfigError(`${where} config must be a number between 0 and 2 or a hash`);
  const when = isHash(value) && value.when !== undefined ? stringList(value.when, `${where}:when`) : ['always'];
  return { max, when };
}

/** The most jobs one `parallel:` may expand into (GitLab's `PARALLEL_LIMIT`). */
const PARALLEL_LIMIT = 200;

interface ParallelInstance {
  name: (base: string) => string;
  /** `CI_NODE_INDEX`, `CI_NODE_TOTAL` and, for `parallel: matrix`, the combination's variables. */
  variables: Record<string, string>;
}

/**
 * `parallel:` (GitLab's `Entry::Product::Parallel` and its normalizer strategies): a number N
 * gives N jobs `<name> 1/N` … `<name> N/N`; `matrix:` (a list of hashes of variable → value or
 * list of values) one job per combination of each hash, `<name>: [value, value]`, with those
 * variables. Every instance gets `CI_NODE_INDEX` (from 1) and `CI_NODE_TOTAL`. Undefined: no
 * `parallel:`.
 */
function parallelOf(value: unknown, where: string): ParallelInstance[] | undefined {
  if (value === undefined || value === null) return undefined;
  const node = (index: number, total: number) => ({ CI_NODE_INDEX: String(index), CI_NODE_TOTAL: String(total) });
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new ConfigError(`${where} config must be an integer`);
    if (value < 1) throw new ConfigError(`${where} config must be greater than or equal to 1`);
    if (value > PARALLEL_LIMIT) throw new ConfigError(`${where} config must be less than or equal to ${PARALLEL_LIMIT}`);
    return Array.from({ length: value }, (_, i) => ({ name: (base: string) => `${base} ${i + 1}/${value}`, variables: node(i + 1, value) }));
  }
  if (!isHash(value)) throw new ConfigError(`${where} should be an integer or a hash`);
  const unknown = Object.keys(value).filter((key) => key !== 'matrix');
  if (unknown.length > 0) throw new ConfigError(`${where} config contains unknown keys: ${unknown.join(', ')}`);
  if (value.matrix === undefined) throw new ConfigError(`${where} config missing required keys: matrix`);
  const matrix = value.matrix;
  if (!Array.isArray(matrix) || !matrix.every(isHash)) throw new ConfigError(`${where}:matrix config should be an array of hashes`);
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  const dimensions = matrix.map((entry) => {
    const pairs = Object.entries(entry);
    if (pairs.length === 0) throw new ConfigError(`${where}:matrix:variables config requires at least 1 items`);
    if (!pairs.every(([, v]) => scalar(v) || (Array.isArray(v) && v.every(scalar)))) {
      throw new ConfigError(`${where}:matrix:variables config should be a hash of key value pairs, value can be an array`);
    }
    return pairs.map(([key, v]) => [key, (Array.isArray(v) ? v : [v]).map(String)] as const);
  });
  const count = dimensions.reduce((sum, pairs) => sum + pairs.reduce((product, [, values]) => product * values.length, 1), 0);
  if (count > PARALLEL_LIMIT) throw new ConfigError(`${where}:matrix config generates too many jobs (maximum is ${PARALLEL_LIMIT})`);
  // Each hash's values multiplied out in order, the first variable varying slowest (Ruby's `Array#product`).
  const combinations = dimensions.flatMap((pairs) =>
    pairs.reduce<Array<Array<[string, string]>>>((partial, [key, values]) => partial.flatMap((combination) => values.map((v) => [...combination, [key, v] as [string, string]])), [[]]),
  );
  return combinations.map((combination, i) => ({
    name: (base: string) => `${base}: [${combination.map(([, v]) => v).join(', ')}]`,
    variables: { ...Object.fromEntries(combination), ...node(i + 1, combinations.length) },
  }));
}

function refFilterOf(value: unknown, where: string): RefFilter | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value) || typeof value === 'string') return { refs: stringList(value, where) };
  if (isHash(value)) {
    return {
      ...(value.refs !== undefined ? { refs: stringList(value.refs, `${where}:refs`) } : {}),
      ...(value.variables !== undefined ? { variables: stringList(value.variables, `${where}:variables`) } : {}),
    };
  }
  throw new ConfigError(`${where} config should be an array of strings or regular expressions or a hash`);
}

function whenOf(value: unknown, where: string): When | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !WHEN_VALUES.has(value)) {
    throw new ConfigError(`${where} config should be one of on_success, on_failure, always, manual, delayed, never`);
  }
  return value as When;
}

/** A trigger job's `trigger:` as GitLab's `Entry::Trigger` checks it (its strategies: a string, a hash with `include`, a hash with `project`). */
function triggerOf(value: unknown, where: string): TriggerDefinition {
  if (typeof value === 'string') {
    if (!value) throw new ConfigError(`${where} config can't be blank`);
    return { project: value, forward: { yamlVariables: true, pipelineVariables: false } };
  }
  if (!isHash(value)) throw new ConfigError(`${where} has to be either a string or a hash`);
  const child = Object.hasOwn(value, 'include');
  const allowed = child ? ['strategy', 'include', 'forward'] : ['project', 'branch', 'strategy', 'forward'];
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) throw new ConfigError(`${where} config contains unknown keys: ${unknown.join(', ')}`);
  if (value.strategy !== undefined && value.strategy !== null && value.strategy !== 'depend') throw new ConfigError(`${where} strategy should be depend`);
  const forward = forwardOf(value.forward, `${where}:forward`);
  const strategy = value.strategy === 'depend' ? { strategy: 'depend' as const } : {};
  if (child) {
    const include = value.include;
    const list = typeof include === 'string' ? [include] : Array.isArray(include) ? include : isHash(include) ? [include] : undefined;
    if (!list || list.length === 0 || !list.every((entry) => (typeof entry === 'string' && entry !== '') || isHash(entry))) {
      throw new ConfigError(`${where}:include config should be an array or a string`);
    }
    // A bare path is a local file, as `include:` reads it.
    return { include: list.map((entry) => (typeof entry === 'string' ? { local: entry } : entry)), ...strategy, forward };
  }
  if (typeof value.project !== 'string' || !value.project) throw new ConfigError(`${where} project can't be blank`);
  if (value.branch !== undefined && value.branch !== null && typeof value.branch !== 'string') throw new ConfigError(`${where} branch should be a string`);
  return { project: value.project, ...(typeof value.branch === 'string' ? { branch: value.branch } : {}), ...strategy, forward };
}

/** `trigger:forward` (GitLab's `Entry::Trigger::Forward`): `yaml_variables` (default true), `pipeline_variables` (default false). */
function forwardOf(value: unknown, where: string): TriggerDefinition['forward'] {
  if (value === undefined || value === null) return { yamlVariables: true, pipelineVariables: false };
  if (!isHash(value)) throw new ConfigError(`${where} config should be a hash`);
  const unknown = Object.keys(value).filter((key) => key !== 'yaml_variables' && key !== 'pipeline_variables');
  if (unknown.length > 0) throw new ConfigError(`${where} config contains unknown keys: ${unknown.join(', ')}`);
  for (const key of ['yaml_variables', 'pipeline_variables']) {
    if (value[key] !== undefined && value[key] !== null && typeof value[key] !== 'boolean') throw new ConfigError(`${where} ${key.replace('_', ' ')} should be a boolean value`);
  }
  return { yamlVariables: value.yaml_variables !== false, pipelineVariables: value.pipeline_variables === true };
}

/** `auto_cancel:` of the workflow or of a workflow rule, checked as GitLab's `Entry::AutoCancel` does. */
function autoCancelOf(value: unknown, where: string): AutoCancelDefinition | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isHash(value)) throw new ConfigError(`${where} config should be a hash`);
  const unknown = Object.keys(value).filter((key) => key !== 'on_new_commit' && key !== 'on_job_failure');
  if (unknown.length > 0) throw new ConfigError(`${where} config contains unknown keys: ${unknown.join(', ')}`);
  const pick = <T extends string>(key: string, label: string, allowed: readonly T[]): T | undefined => {
    const given = value[key];
    if (given === undefined || given === null) return undefined;
    if (typeof given !== 'string') throw new ConfigError(`${where} ${label} should be a string`);
    if (!(allowed as readonly string[]).includes(given)) throw new ConfigError(`${where} ${label} must be one of: ${allowed.join(', ')}`);
    return given as T;
  };
  const onNewCommit = pick('on_new_commit', 'on new commit', ON_NEW_COMMIT);
  const onJobFailure = pick('on_job_failure', 'on job failure', ON_JOB_FAILURE);
  return { ...(onNewCommit ? { onNewCommit } : {}), ...(onJobFailure ? { onJobFailure } : {}) };
}

function rulesOf(value: unknown, where: string): RuleDefinition[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new ConfigError(`${where} config should be an array of hashes`);
  return value.map((rule, i) => {
    if (!isHash(rule)) throw new ConfigError(`${where}:rule config should be a hash`);
    if (rule.if !== undefined && typeof rule.if !== 'string') throw new ConfigError(`${where}:rules:rule if invalid expression syntax`);
    if (typeof rule.if === 'string') {
      try {
        evaluateExpression(rule.if, {});
      } catch (error) {
        if (error instanceof ExpressionError) throw new ConfigError(`${where}:rules:rule if invalid expression syntax`);
        throw error;
      }
    }
    return {
      ...(typeof rule.if === 'string' ? { if: rule.if } : {}),
      ...(rule.when !== undefined ? { when: whenOf(rule.when, `${where}:rules:${i}:when`) } : {}),
      ...(typeof rule.allow_failure === 'boolean' ? { allowFailure: rule.allow_failure } : {}),
      ...(rule.variables !== undefined ? { variables: variablesOf(rule.variables, `${where}:rules:${i}:variables`) } : {}),
      // Only workflow rules take `auto_cancel` (GitLab's `workflow:rules` metadata allows it).
      ...(where === 'workflow' && autoCancelOf(rule.auto_cancel, `${where}:rules:rule:auto_cancel`) ? { autoCancel: autoCancelOf(rule.auto_cancel, `${where}:rules:rule:auto_cancel`) } : {}),
    };
  });
}

function buildConfig(input: unknown): CiConfig {
  const root = resolveExtends(input as Hash);
  const defaults: Hash = isHash(root.default) ? root.default : {};
  if (root.default !== undefined && !isHash(root.default)) throw new ConfigError('default config should be a hash');
  for (const key of Object.keys(defaults)) if (!DEFAULT_KEYS.has(key)) throw new ConfigError(`default config contains unknown keys: ${key}`);
  // The deprecated global keywords, which `default:` overrides.
  const inherited = (key: string) => (key in defaults ? defaults[key] : root[key]);

  const declared = root.stages ?? root.types;
  const userStages = declared === undefined ? ['build', 'test', 'deploy'] : stringList(declared, 'stages');
  const stages = ['.pre', ...userStages.filter((s) => s !== '.pre' && s !== '.post'), '.post'];
  const variables = variablesOf(root.variables, 'variables');
  const workflow = isHash(root.workflow) ? rulesOf(root.workflow.rules, 'workflow') : undefined;
  const autoCancel = isHash(root.workflow) ? autoCancelOf(root.workflow.auto_cancel, 'workflow:auto_cancel') : undefined;
  const workflowName = isHash(root.workflow) ? workflowNameOf(root.workflow.name) : undefined;

  const jobs: JobDefinition[] = [];
  /** A parallel job's name → the names of the jobs it expanded into. */
  const expanded = new Map<string, string[]>();
  for (const [name, value] of Object.entries(root)) {
    if (RESERVED.has(name)) continue;
    if (name.startsWith('.')) continue; // hidden job (a template)
    if (!isHash(value)) {
      // GitLab refuses unknown top-level keys that are not jobs.
      throw new ConfigError(`jobs:${name} config should be a hash`);
    }
    const where = `jobs:${name}`;
    const unknown = Object.keys(value).filter((key) => !(value.trigger === undefined ? JOB_KEYS : BRIDGE_KEYS).has(key));
    if (unknown.length > 0) throw new ConfigError(`${where} config contains unknown keys: ${unknown.join(', ')}`);
    if (value.script === undefined && value.trigger === undefined && value.run === undefined) {
      throw new ConfigError(`${where} config should implement the script:, run:, or trigger: keyword`);
    }
    const script = stringList(value.script, `${where}:script`);
    if (value.script !== undefined && script.length === 0) throw new ConfigError(`${where}:script config should be a string or a nested array of strings up to 10 levels deep`);
    const stage = value.stage === undefined && value.type === undefined ? 'test' : String(value.stage ?? value.type);
    if (!stages.includes(stage)) {
      throw new ConfigError(`${name} job: chosen stage ${stage} does not exist; available stages are ${stages.join(', ')}`);
    }
    if (value.rules !== undefined && (value.only !== undefined || value.except !== undefined)) {
      throw new ConfigError(`${where} config key may not be used with \`rules\`: ${value.only !== undefined ? 'only' : 'except'}`);
    }
    const when = whenOf(value.when, `${where}:when`) ?? 'on_success';
    const allowFailureRaw = value.allow_failure;
    let allowFailure = when === 'manual';
    let allowFailureExitCodes: number[] | undefined;
    if (typeof allowFailureRaw === 'boolean') allowFailure = allowFailureRaw;
    else if (isHash(allowFailureRaw)) {
      const codes = Array.isArray(allowFailureRaw.exit_codes) ? allowFailureRaw.exit_codes : [allowFailureRaw.exit_codes];
      allowFailureExitCodes = codes.map(Number).filter(Number.isInteger);
      allowFailure = false;
    } else if (allowFailureRaw !== undefined && allowFailureRaw !== null) {
      throw new ConfigError(`${where}:allow_failure config should be a hash or a boolean value`);
    }
    const timeout = value.timeout ?? inherited('timeout');
    const timeoutSeconds = timeout === undefined || timeout === null ? undefined : parseDuration(timeout);
    if (timeout !== undefined && timeout !== null && timeoutSeconds === undefined) throw new ConfigError(`${where}:timeout config should be a duration`);
    const needs = value.needs === undefined || value.needs === null
      ? undefined
      : (Array.isArray(value.needs) ? value.needs : [value.needs]).map((need) => {
          if (typeof need === 'string') return { name: need, artifacts: true, optional: false };
          if (isHash(need) && typeof need.job === 'string') return { name: need.job, artifacts: need.artifacts !== false, optional: need.optional === true };
          throw new ConfigError(`${where}:needs config can only be a string or a hash`);
        });
    const environment = isHash(value.environment) ? String(value.environment.name ?? '') : value.environment === undefined ? undefined : String(value.environment);
    const environmentOptions = isHash(value.environment) ? environmentOptionsOf(value.environment) : undefined;
    const instances = parallelOf(value.parallel, `${where}:parallel`);
    const job: JobDefinition = {
      name,
      stage,
      stageIdx: stages.indexOf(stage),
      script,
      beforeScript: stringList(value.before_script ?? inherited('before_script'), `${where}:before_script`),
      afterScript: stringList(value.after_script ?? inherited('after_script'), `${where}:after_script`),
      ...(imageOf(value.image ?? inherited('image'), `${where}:image`) ? { image: imageOf(value.image ?? inherited('image'), `${where}:image`) } : {}),
      services: servicesOf(value.services ?? inherited('services'), `${where}:services`),
      variables: { ...variables, ...variablesOf(value.variables, `${where}:variables`) },
      when,
      allowFailure,
      ...(allowFailureExitCodes ? { allowFailureExitCodes } : {}),
      tags: stringList(value.tags ?? inherited('tags'), `${where}:tags`),
      ...(artifactsOf(value.artifacts ?? inherited('artifacts'), `${where}:artifacts`) ? { artifacts: artifactsOf(value.artifacts ?? inherited('artifacts'), `${where}:artifacts`) } : {}),
      ...(value.dependencies !== undefined && value.dependencies !== null ? { dependencies: stringList(value.dependencies, `${where}:dependencies`) } : {}),
      ...(needs ? { needs } : {}),
      cache: cacheOf(value.cache ?? inherited('cache'), `${where}:cache`),
      retry: retryOf(value.retry ?? inherited('retry'), `${where}:retry`),
      ...(timeoutSeconds !== undefined ? { timeout: timeoutSeconds } : {}),
      interruptible: (value.interruptible ?? inherited('interruptible')) === true,
      ...(refFilterOf(value.only, `${where}:only`) ? { only: refFilterOf(value.only, `${where}:only`) } : {}),
      ...(refFilterOf(value.except, `${where}:except`) ? { except: refFilterOf(value.except, `${where}:except`) } : {}),
      ...(rulesOf(value.rules, where) ? { rules: rulesOf(value.rules, where) } : {}),
      ...(environment ? { environment } : {}),
      ...(environment && environmentOptions ? { environmentOptions } : {}),
      ...(typeof value.coverage === 'string' ? { coverage: value.coverage } : {}),
      ...(releaseOf(value.release, `${where}:release`) ? { release: releaseOf(value.release, `${where}:release`) } : {}),
      ...(value.trigger !== undefined ? { trigger: triggerOf(value.trigger, `${where}:trigger`) } : {}),
    };
    if (!instances) {
      jobs.push(job);
      continue;
    }
    expanded.set(name, instances.map((instance) => instance.name(name)));
    for (const instance of instances) jobs.push({ ...job, name: instance.name(name), variables: { ...job.variables, ...instance.variables } });
  }
  if (jobs.length === 0) throw new ConfigError('jobs config should contain at least one visible job');
  // `needs:` and `dependencies:` naming a parallel job mean every job it expanded into (GitLab's normalizer).
  for (const job of jobs) {
    if (job.needs) job.needs = job.needs.flatMap((need) => (expanded.get(need.name) ?? [need.name]).map((name) => ({ ...need, name })));
    if (job.dependencies) job.dependencies = job.dependencies.flatMap((dependency) => expanded.get(dependency) ?? [dependency]);
  }

  const byName = new Map(jobs.map((job) => [job.name, job]));
  for (const job of jobs) {
    for (const dependency of job.dependencies ?? []) {
      const found = byName.get(dependency);
      if (!found) throw new ConfigError(`${job.name} job: undefined dependency: ${dependency}`);
      if (found.stageIdx >= job.stageIdx && !job.needs?.some((n) => n.name === dependency)) {
        throw new ConfigError(`${dependency} job: dependency ${dependency} is not defined in current or prior stages`);
      }
    }
    for (const need of job.needs ?? []) {
      const found = byName.get(need.name);
      if (!found && !need.optional) throw new ConfigError(`${job.name} job: undefined need: ${need.name}`);
      if (found && found.stageIdx > job.stageIdx) throw new ConfigError(`${job.name} job: need ${need.name} is not defined in current or prior stages`);
    }
  }
  return { stages, jobs, variables, ...(workflow ? { workflowRules: workflow } : {}), ...(autoCancel ? { autoCancel } : {}), ...(workflowName ? { workflowName } : {}) };
}

/** `workflow:name` (GitLab's `Entry::Workflow`): a string of at most {@link PIPELINE_NAME_MAX} characters as written. */
function workflowNameOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw new ConfigError('workflow name should be a string');
  const name = String(value);
  if ([...name].length > PIPELINE_NAME_MAX) throw new ConfigError(`workflow name is too long (maximum is ${PIPELINE_NAME_MAX} characters)`);
  return name;
}

/** Internal: an `environment:` hash's `url`, `action`, `deployment_tier`, `on_stop` and `auto_stop_in`; none when it gives none. */
function environmentOptionsOf(environment: Record<string, unknown>): EnvironmentOptions | undefined {
  const text = (key: string) => (typeof environment[key] === 'string' ? environment[key] : undefined);
  const options = { url: text('url'), action: text('action'), deploymentTier: text('deployment_tier'), onStop: text('on_stop'), autoStopIn: text('auto_stop_in') };
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as EnvironmentOptions;
  return Object.keys(given).length > 0 ? given : undefined;
}

/** What decides which jobs a pipeline gets. */
export interface PipelineContext {
  ref: string;
  tag: boolean;
  /** `push`, `web`, `api`, `trigger`, `schedule`, `merge_request_event`, ... */
  source: string;
  /** The predefined variables and the pipeline's own (rules read them). */
  variables: Record<string, string>;
}

/** A job chosen for a pipeline: its definition with the `when`/`allow_failure` its matching rule set. */
export type SelectedJob = JobDefinition;

const SOURCE_KEYWORDS: Record<string, string> = {
  pushes: 'push',
  api: 'api',
  web: 'web',
  triggers: 'trigger',
  schedules: 'schedule',
  merge_requests: 'merge_request_event',
  external: 'external',
  pipelines: 'pipeline',
  chats: 'chat',
};

function refMatches(pattern: string, context: PipelineContext): boolean {
  // A merge request pipeline runs on the merge request's ref, not a branch (GitLab's `branch?`).
  if (pattern === 'branches') return !context.tag && context.source !== 'merge_request_event';
  if (pattern === 'tags') return context.tag;
  if (SOURCE_KEYWORDS[pattern]) return context.source === SOURCE_KEYWORDS[pattern];
  if (/^\/.*\/[A-Za-z]*$/s.test(pattern)) {
    try {
      return fabricateRubySyntax(pattern)?.test(context.ref) ?? false;
    } catch {
      return false;
    }
  }
  // `branch@namespace/project` limits to a project; the part before `@` is the ref.
  return pattern.split('@', 1)[0] === context.ref;
}

const safeEvaluate = (expression: string, variables: Record<string, string>) => {
  try {
    return evaluateExpression(expression, variables);
  } catch {
    return false;
  }
};

function filterMatches(filter: RefFilter, context: PipelineContext, variables: Record<string, string>): boolean {
  const refs = filter.refs === undefined || filter.refs.length === 0 || filter.refs.some((pattern) => refMatches(pattern, context));
  const vars = filter.variables === undefined || filter.variables.some((expression) => safeEvaluate(expression, variables));
  return refs && vars;
}

/** The first rule that matches, or undefined. */
export function matchingRule(rules: readonly RuleDefinition[], variables: Record<string, string>): RuleDefinition | undefined {
  return rules.find((rule) => rule.if === undefined || safeEvaluate(rule.if, variables));
}

/** Whether `workflow: rules` let the pipeline be created. */
export function workflowAllows(config: CiConfig, context: PipelineContext): boolean {
  if (!config.workflowRules) return true;
  const rule = matchingRule(config.workflowRules, { ...config.variables, ...context.variables });
  return rule !== undefined && rule.when !== 'never';
}

/**
 * The auto-cancel settings of a pipeline for `context` (GitLab's pipeline metadata): the matching
 * workflow rule's `auto_cancel`, key by key over `workflow:auto_cancel`, over the defaults.
 */
export function workflowAutoCancel(config: CiConfig, context: PipelineContext): AutoCancelSettings {
  const rule = config.workflowRules ? matchingRule(config.workflowRules, { ...config.variables, ...context.variables }) : undefined;
  return { onNewCommit: 'conservative', onJobFailure: 'none', ...config.autoCancel, ...rule?.autoCancel };
}

/**
 * The variables the matching workflow rule sets (`workflow:rules:variables`, GitLab's pipeline
 * root variables over the file's global ones); none when no rule matches.
 */
export function workflowRuleVariables(config: CiConfig, context: PipelineContext): Record<string, string> {
  const rule = config.workflowRules ? matchingRule(config.workflowRules, { ...config.variables, ...context.variables }) : undefined;
  return rule?.variables ?? {};
}

/**
 * The jobs a pipeline for `context` gets (GitLab's `only`/`except` and `rules`): `only` defaults
 * to branches and tags; a job with `rules` is included by its first matching rule unless that
 * rule says `when: never`, and takes that rule's `when` and `allow_failure`.
 */
export function selectJobs(config: CiConfig, context: PipelineContext): SelectedJob[] {
  const selected: SelectedJob[] = [];
  for (const job of config.jobs) {
    const variables = { ...job.variables, ...context.variables };
    if (job.rules) {
      const rule = matchingRule(job.rules, variables);
      if (!rule || rule.when === 'never') continue;
      const when = rule.when ?? job.when;
      const allowFailure = rule.allowFailure ?? (rule.when === 'manual' ? true : job.allowFailure);
      selected.push({ ...job, when, allowFailure, variables: { ...job.variables, ...rule.variables } });
      continue;
    }
    const only = job.only ?? { refs: ['branches', 'tags'] };
    if (!filterMatches(only, context, variables)) continue;
    if (job.except && (job.except.refs?.length || job.except.variables?.length) && filterMatches(job.except, context, variables)) continue;
    selected.push(job);
  }
  // A job that needs a job left out cannot run (GitLab refuses the pipeline); optional needs are dropped.
  const names = new Set(selected.map((job) => job.name));
  return selected.map((job) => (job.needs ? { ...job, needs: job.needs.filter((need) => names.has(need.name) || !need.optional) } : job));
}

/** The error GitLab gives for a pipeline whose selected jobs need a job that was not selected. */
export function missingNeedsError(jobs: readonly SelectedJob[]): string | undefined {
  const names = new Set(jobs.map((job) => job.name));
  for (const job of jobs) {
    const missing = job.needs?.find((need) => !names.has(need.name));
    if (missing) return `'${job.name}' job needs '${missing.name}' job, but '${missing.name}' does not exist in the pipeline. This might be because of the only, except, or rules keywords. To need a job that sometimes does not exist in the pipeline, use needs:optional.`;
  }
  return undefined;
}
