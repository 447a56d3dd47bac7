/**
 * Which language a file of a repository counts for in `GET /projects/:id/languages`, as GitLab's
 * Gitaly decides it with linguist's data (`go-enry`): the language data is GitHub linguist's own
 * `languages.yml`, from the `linguist-languages` package; the detection is the part of linguist
 * that needs no file content: the file's exact name, then its extension (the longest one first).
 * An extension several languages claim goes to the language whose first extension it is (`.ts`:
 * TypeScript, not Qt's XML translations), else to a programming language, else the first by name.
 *
 * As linguist's statistics, only programming and markup languages count (data and prose, such as
 * JSON and Markdown, do not), and vendored code, documentation and generated files are left out
 * (a short list of linguist's `vendor.yml`, `documentation.yml` and generated-file rules). As in
 * Gitaly, a language counts under its own name (TSX apart from TypeScript). Pure functions.
 */
import * as linguist from 'linguist-languages';

interface LanguageData {
  name: string;
  type: string;
  extensions?: readonly string[];
  filenames?: readonly string[];
}

const ALL = Object.values(linguist as unknown as Record<string, LanguageData>);

/** Internal: the language an extension (with its dot, lower case) or a file name maps to. */
function buildIndexes() {
  const byFilename = new Map<string, LanguageData>();
  const byExtension = new Map<string, LanguageData>();
  const rank = (language: LanguageData, extension: string): number =>
    language.extensions?.[0]?.toLowerCase() === extension ? 0 : language.type === 'programming' ? 1 : 2;
  const sorted = [...ALL].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const language of sorted) {
    for (const filename of language.filenames ?? []) if (!byFilename.has(filename)) byFilename.set(filename, language);
    for (const raw of language.extensions ?? []) {
      const extension = raw.toLowerCase();
      const current = byExtension.get(extension);
      if (!current || rank(language, extension) < rank(current, extension)) byExtension.set(extension, language);
    }
  }
  return { byFilename, byExtension };
}

let indexes: ReturnType<typeof buildIndexes> | undefined;

/** Paths linguist treats as vendored code (a subset of its `vendor.yml`). */
const VENDORED = [
  /(^|\/)(node_modules|bower_components|vendor|vendors|third[-_]?party|Godeps|Pods|Carthage|deps|\.yarn)\//,
  /(^|\/)dist\//,
  /(^|\/)cache\//,
  /\.min\.(js|css)$/,
  /(^|\/)(jquery|bootstrap)([^/]*)\.js$/,
  /(^|\/)gradlew(\.bat)?$/,
  /(^|\/)mvnw(\.cmd)?$/,
  /(^|\/)\.(github|gitlab|vscode|idea)\//,
];

/** Paths linguist treats as documentation (its `documentation.yml`). */
const DOCUMENTATION = [
  /^docs?\//,
  /(^|\/)[Dd]ocumentation\//,
  /(^|\/)javadoc\//,
  /^man\//,
  /^[Ee]xamples?\//,
  /(^|\/)(CHANGE(S|LOG)?|CONTRIBUTING|COPYING|INSTALL|LICEN[CS]E|[Ll]icen[cs]e|README|[Rr]eadme)(\.|$)/,
];

/** Generated files linguist recognizes by name (lock files, protobuf output, source maps). */
const GENERATED = [
  /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Gemfile\.lock|Cargo\.lock|composer\.lock|poetry\.lock|go\.sum|Pipfile\.lock)$/,
  /\.pb\.go$/,
  /_pb2\.py$/,
  /\.(js|css)\.map$/,
];

/** Whether a path is left out of the statistics: vendored, documentation or generated. */
export const isExcludedPath = (path: string): boolean =>
  [...VENDORED, ...DOCUMENTATION, ...GENERATED].some((pattern) => pattern.test(path));

/**
 * The language a file counts for, by its path; `undefined` when none does (unknown, data, prose,
 * or an excluded path).
 *
 * @example
 * languageOf('app/models/user.rb'); // 'Ruby'
 * languageOf('src/view.d.ts'); // 'TypeScript'
 * languageOf('README.md'); // undefined
 */
export function languageOf(path: string): string | undefined {
  if (isExcludedPath(path)) return undefined;
  indexes ??= buildIndexes();
  const name = path.slice(path.lastIndexOf('/') + 1);
  let language = indexes.byFilename.get(name);
  if (!language) {
    const lower = name.toLowerCase();
    // `.d.ts`, then `.ts`: every dot after the first character starts a candidate, longest first.
    for (let dot = lower.indexOf('.', 1); dot > 0 && !language; dot = lower.indexOf('.', dot + 1)) {
      language = indexes.byExtension.get(lower.slice(dot));
    }
  }
  if (!language || (language.type !== 'programming' && language.type !== 'markup')) return undefined;
  return language.name;
}

/** A file looks binary (linguist leaves binary files out) when its first 8000 bytes hold a NUL. */
export const isBinary = (content: Buffer): boolean => content.subarray(0, 8000).includes(0);

/** GitLab keeps a project's five largest languages (`Gitlab::LanguageDetection::MAX_LANGUAGES`). */
export const MAX_LANGUAGES = 5;

/**
 * GitLab's answer from bytes per language: each language's share of all counted bytes, in percent
 * rounded to two decimals, largest first (ties by name), at most {@link MAX_LANGUAGES}.
 *
 * @example
 * languageShares({ Ruby: 300, JavaScript: 100 }); // { Ruby: 75, JavaScript: 25 }
 */
export function languageShares(bytes: Record<string, number>): Record<string, number> {
  const total = Object.values(bytes).reduce((sum, size) => sum + size, 0);
  if (total === 0) return {};
  const ranked = Object.entries(bytes)
    .filter(([, size]) => size > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .slice(0, MAX_LANGUAGES);
  return Object.fromEntries(ranked.map(([name, size]) => [name, Math.round((size / total) * 10000) / 100]));
}
