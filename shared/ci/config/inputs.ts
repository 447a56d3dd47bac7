/**
 * CI/CD inputs (GitLab's `spec:inputs` header and `$[[ ]]` interpolation, `Gitlab::Ci::Config::
 * Interpolation` and `Ci::Inputs`): a configuration file may start with a header document
 * (`spec: inputs:` before `---`) that declares the inputs it takes; the values given (by an
 * `include:`'s `inputs:`, or the pipeline's creation for the main file) are checked against it,
 * defaults filled in, and every `$[[ inputs.name ]]` of the file's content replaced. A block that
 * is a whole YAML value keeps the input's type (number, boolean, array); inside a longer string it
 * is written as text. Functions after a pipe: `truncate(offset, length)`, `expand_vars`,
 * `posix_escape` and `split('separator')`. An input's `rules:` give it options and a default
 * that depend on the inputs before it (GitLab's `Ci::Inputs::RulesEvaluator`). A `regex:` is
 * compiled as untrusted (`untrusted-regexp.ts`).
 *
 * Errors are GitLab's messages (at most three, joined by `, ` as GitLab's interpolator does),
 * returned, never thrown. Pure.
 */

import { expandVariables, VariableExpansionError } from './expand';
import { evaluateExpression } from './expressions';
import { compileUntrusted } from './untrusted-regexp';

type Hash = Record<string, unknown>;
const isHash = (value: unknown): value is Hash => typeof value === 'object' && value !== null && !Array.isArray(value);

export type InterpolationResult = { ok: true; value: Hash } | { ok: false; error: string };

/** Input types, in GitLab's order (its error message lists them so). */
export const INPUT_TYPES = ['array', 'boolean', 'number', 'string'] as const;
export type InputType = (typeof INPUT_TYPES)[number];

const SPEC_KEYS = new Set(['inputs']);
const INPUT_KEYS = new Set(['default', 'description', 'options', 'regex', 'type', 'rules']);
const MAX_OPTIONS = 50;
const BLOCK = /\$\[\[\s*(\S.*?\S|\S)\s*\]\]/g;
const MAX_BLOCKS = 10_000;
const MAX_FUNCTIONS = 3;
const MAX_ACCESS_OBJECTS = 5;
const MAX_ACCESS_BYTES = 1024;

class InputError extends Error {}

/**
 * Interpolates a file's content with the inputs its header declares. Without a header the content
 * is returned as is, and any input given is an error (`unknown input arguments`).
 *
 * @example
 * interpolate({ spec: { inputs: { stage: { default: 'test' } } } }, { job: { stage: '$[[ inputs.stage ]]' } }, {}, {});
 * // { ok: true, value: { job: { stage: 'test' } } }
 */
export function interpolate(
  header: Hash | undefined,
  content: Hash,
  args: Hash | undefined,
  variables: Readonly<Record<string, string>>,
  masked: ReadonlySet<string> = new Set(),
): InterpolationResult {
  const given = args ?? {};
  if (header === undefined) {
    return Object.keys(given).length > 0 ? { ok: false, error: 'unknown input arguments' } : { ok: true, value: content };
  }
  const specs = specsOf(header);
  if (!specs.ok) return specs;
  const values = resolveInputs(specs.value, given);
  if (!values.ok) return values;
  try {
    const state = { blocks: 0 };
    const value = replaceNode(content, { inputs: values.value, variables, masked }, state);
    return isHash(value) ? { ok: true, value } : { ok: false, error: 'Invalid configuration format' };
  } catch (error) {
    if (error instanceof InputError) return { ok: false, error: error.message };
    throw error;
  }
}

/** The header's `spec:inputs`, checked as GitLab's `Header::Root` entries are. */
function specsOf(header: Hash): { ok: true; value: Hash } | { ok: false; error: string } {
  const unknownRoot = Object.keys(header).filter((key) => key !== 'spec');
  if (unknownRoot.length > 0) return { ok: false, error: `header config contains unknown keys: ${unknownRoot.join(', ')}` };
  const spec = header.spec;
  if (spec === null || spec === undefined) return { ok: true, value: {} };
  if (!isHash(spec)) return { ok: false, error: 'header:spec config should be a hash' };
  const unknownSpec = Object.keys(spec).filter((key) => !SPEC_KEYS.has(key));
  if (unknownSpec.length > 0) return { ok: false, error: `header:spec config contains unknown keys: ${unknownSpec.join(', ')}` };
  const inputs = spec.inputs ?? {};
  if (!isHash(inputs)) return { ok: false, error: 'header:spec:inputs config should be a hash' };
  const errors: string[] = [];
  for (const [name, definition] of Object.entries(inputs)) {
    const where = `header:spec:inputs:${name}`;
    if (definition === null) continue;
    if (!isHash(definition)) {
      errors.push(`${where} config should be a hash`);
      continue;
    }
    const unknown = Object.keys(definition).filter((key) => !INPUT_KEYS.has(key));
    if (unknown.length > 0) errors.push(`${where} config contains unknown keys: ${unknown.join(', ')}`);
    const exclusive = Object.keys(definition).filter((key) => key === 'rules' || key === 'options');
    if (exclusive.length > 1) errors.push(`${where} config these keys cannot be used together: ${exclusive.join(', ')}`);
    const withDefault = Object.keys(definition).filter((key) => key === 'rules' || key === 'default');
    if (withDefault.length > 1) errors.push(`${where} config these keys cannot be used together: ${withDefault.join(', ')}`);
    if (definition.rules !== undefined && definition.rules !== null) errors.push(...rulesErrors(definition.rules, `${where}:rules`));
    if (definition.regex !== undefined && definition.regex !== null && typeof definition.regex !== 'string') errors.push(`${where} input regex should be a string`);
    if (definition.options !== undefined && definition.options !== null) {
      if (!Array.isArray(definition.options)) errors.push(`${where} input options should be an array`);
      else if (definition.options.length > MAX_OPTIONS) errors.push(`${where} config cannot define more than ${MAX_OPTIONS} options`);
      else if (definition.options.some((option) => option === null)) errors.push(`${where} config options array cannot contain null values`);
    }
  }
  return errors.length > 0 ? { ok: false, error: errors.slice(0, 3).join(', ') } : { ok: true, value: inputs };
}

/** An input's `rules:` as GitLab's `Header::Input::Rules` entry checks them. */
function rulesErrors(rules: unknown, where: string): string[] {
  if (!Array.isArray(rules)) return [`${where} config should be a array`];
  const errors: string[] = [];
  for (const rule of rules) {
    const at = `${where}:rule`;
    if (rule === null || rule === undefined) errors.push(`${at} config can't be blank`);
    else if (!isHash(rule)) errors.push(`${at} config should be a hash`);
    else {
      const unknown = Object.keys(rule).filter((key) => !['if', 'options', 'default'].includes(key));
      if (unknown.length > 0) errors.push(`${at} config contains unknown keys: ${unknown.join(', ')}`);
      else if (rule.if !== undefined && rule.if !== null && typeof rule.if !== 'string') errors.push(`${at} if should be a string`);
      else if (rule.options !== undefined && rule.options !== null && !Array.isArray(rule.options)) errors.push(`${at} options should be a array`);
      else if (Array.isArray(rule.options) && rule.options.length > MAX_OPTIONS) errors.push(`${at} config cannot define more than ${MAX_OPTIONS} options`);
      else if (rule.if && !rule.options && !Object.hasOwn(rule, 'default')) errors.push(`${at} config rule with 'if' must define 'options' or 'default'`);
      else if (!rule.if && !rule.options) errors.push(`${at} config fallback rule must define 'options'`);
    }
  }
  return errors;
}

/** The inputs' values (defaults filled in, coerced to their types), or the first three errors (GitLab's `Ci::Inputs::Builder`). */
function resolveInputs(specs: Hash, given: Hash): { ok: true; value: Hash } | { ok: false; error: string } {
  const errors: string[] = [];
  const unknown = Object.keys(given).filter((name) => !Object.hasOwn(specs, name));
  if (unknown.length > 0) errors.push(`unknown input arguments: ${unknown.join(', ')}`);
  const values: Hash = {};
  for (const [name, raw] of Object.entries(specs)) {
    const spec: Hash = raw === null ? {} : (raw as Hash);
    const type = spec.type === undefined || spec.type === null ? 'string' : spec.type;
    if (!INPUT_TYPES.includes(type as InputType)) {
      errors.push(`unknown input specification for \`${name}\` (valid types: ${INPUT_TYPES.join(', ')})`);
      continue;
    }
    // An input's rules see the inputs before it (resolved) and every value given.
    const input = new Input(name, type as InputType, spec, { ...values, ...given });
    const param = given[name] === undefined ? null : given[name];
    input.validate(param);
    errors.push(...input.errors);
    values[name] = input.actualValue(param);
  }
  return errors.length > 0 ? { ok: false, error: errors.slice(0, 3).join(', ') } : { ok: true, value: values };
}

/** One declared input: its checks (required, type, options, regex) as GitLab's input classes make them. */
class Input {
  readonly errors: string[] = [];
  private readonly options: unknown;
  private readonly default: unknown;
  private readonly required: boolean;

  constructor(
    private readonly name: string,
    private readonly type: InputType,
    private readonly spec: Hash,
    context: Hash,
  ) {
    const rules = Array.isArray(spec.rules) ? spec.rules.filter(isHash) : undefined;
    const rule = rules?.find((candidate) => typeof candidate.if !== 'string' || ruleMatches(candidate.if, context));
    this.options = rule?.options ?? spec.options;
    this.default = rule?.default ?? spec.default;
    this.required = !Object.hasOwn(spec, 'default') && !(rules ?? []).some((candidate) => Object.hasOwn(candidate, 'default') || !Object.hasOwn(candidate, 'if'));
  }

  validate(param: unknown): void {
    if (this.required && param === null) {
      this.error('required value has not been provided');
      return;
    }
    if (!this.required) this.check(this.default ?? null, true);
    if (param !== null) this.check(param, false);
  }

  actualValue(param: unknown): unknown {
    return this.coerce(param === null ? (this.default ?? null) : param);
  }

  private check(raw: unknown, isDefault: boolean): void {
    const value = this.coerce(raw);
    const which = isDefault ? 'default' : 'provided';
    const options = Array.isArray(this.options) ? this.options : undefined;
    switch (this.type) {
      case 'string':
        if (options && value !== null && !options.map(rubyString).includes(value as string)) {
          this.error(`\`${rubyString(value)}\` cannot be used because it is not in the list of allowed options`);
        }
        break;
      case 'number':
        if (typeof value !== 'number') this.error(`${which} value is not a number`);
        if (options && value !== null && !options.includes(value)) {
          this.error(`\`${rubyString(value)}\` cannot be used because it is not in the list of the allowed options`);
        }
        break;
      case 'boolean':
        if (typeof value !== 'boolean') this.error(`${which} value is not a boolean`);
        if (options) this.error('Options can only be used with string and number inputs');
        break;
      case 'array': {
        if (!Array.isArray(value)) this.error(`${which} value is not an array`);
        if (options && Array.isArray(value)) {
          const invalid = value.filter((item) => !options.some((option) => JSON.stringify(option) === JSON.stringify(item)));
          if (invalid.length > 0) this.error(`${invalid.map(rubyString).join(', ')} cannot be used because it is not in the list of allowed options`);
        }
        break;
      }
    }
    this.checkRegex(value, which);
  }

  private checkRegex(value: unknown, which: string): void {
    if (!Object.hasOwn(this.spec, 'regex')) return;
    if (this.type !== 'string') {
      this.error('RegEx validation can only be used with string inputs');
      return;
    }
    if (typeof value !== 'string') return;
    let pattern: { test(text: string): boolean };
    try {
      // GitLab's `UntrustedRegexp.new(regex)`: the pattern as written (no `/pattern/flags` form), found anywhere in the value.
      pattern = compileUntrusted(String(this.spec.regex));
    } catch {
      this.error('invalid regular expression');
      return;
    }
    if (!pattern.test(value)) this.error(`${which} value does not match required RegEx pattern`);
  }

  /** Values given as text (an API's form field) are read as JSON when they are JSON; a string input takes any value as text. */
  private coerce(value: unknown): unknown {
    if (value === null || value === undefined) return null;
    if (this.type === 'string') return rubyString(value);
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }

  private error(message: string): void {
    const text = `\`${this.name}\` input: ${message}`;
    if (!this.errors.includes(text)) this.errors.push(text);
  }
}

/** Whether an input rule's `if:` holds for the inputs so far (an expression that does not evaluate does not). */
function ruleMatches(expression: string, inputs: Hash): boolean {
  try {
    return evaluateExpression(expression, {}, inputs);
  } catch {
    return false;
  }
}

/** A value as Ruby's `to_s` writes it (arrays as `["a", 1]`, nil as empty). */
function rubyString(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `[${value.map(rubyInspect).join(', ')}]`;
  if (isHash(value)) return `{${Object.entries(value).map(([k, v]) => `"${k}"=>${rubyInspect(v)}`).join(', ')}}`;
  return String(value);
}

const rubyInspect = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : value === null ? 'nil' : rubyString(value));

interface Context {
  inputs: Hash;
  /** What `expand_vars` reads, and the names of the masked ones it refuses. */
  variables: Readonly<Record<string, string>>;
  masked: ReadonlySet<string>;
}

/** Contexts whose blocks are left as written, for a later step (GitLab's `SKIP_INTERPOLATION_CONTEXTS`). */
const SKIPPED_CONTEXTS = new Set(['matrix']);

/** Walks the content: keys and string values are interpolated, hashes and arrays entered (GitLab's `Interpolation::Config#replace!`). */
function replaceNode(node: unknown, context: Context, state: { blocks: number }): unknown {
  if (typeof node === 'string') return replaceString(node, context, state);
  if (Array.isArray(node)) return node.map((item) => replaceNode(item, context, state));
  if (isHash(node)) {
    const out: Hash = {};
    for (const [key, value] of Object.entries(node)) out[String(replaceString(key, context, state))] = replaceNode(value, context, state);
    return out;
  }
  return node;
}

function replaceString(node: string, context: Context, state: { blocks: number }): unknown {
  if (!node.includes('$[[')) return node;
  const matches = [...node.matchAll(BLOCK)];
  if (matches.length === 0) return node;
  state.blocks += matches.length;
  if (state.blocks > MAX_BLOCKS) throw new InputError('too many interpolation blocks');
  if (matches.length === 1 && matches[0][0].length === node.length) return evaluateBlock(matches[0][0], matches[0][1], context);
  return node.replace(BLOCK, (block: string, data: string) => rubyString(evaluateBlock(block, data, context)));
}

/** One `$[[ access | function | ... ]]` block's value (GitLab's `Interpolation::Block`). */
function evaluateBlock(block: string, data: string, context: Context): unknown {
  const [access, ...functions] = data.split('|').map((part) => part.trim());
  if (SKIPPED_CONTEXTS.has(access.split('.')[0])) return block;
  const objects = splitLimited(access, '.', MAX_ACCESS_OBJECTS);
  if (objects.length <= 1) throw new InputError('invalid interpolation access pattern');
  if (Buffer.byteLength(access, 'utf8') > MAX_ACCESS_BYTES) throw new InputError('maximum interpolation expression size exceeded');
  let value: unknown = { inputs: context.inputs };
  for (const key of objects) {
    if (!isHash(value) || !Object.hasOwn(value, key)) throw new InputError(`unknown interpolation key: \`${key}\``);
    value = value[key];
  }
  if (functions.length > MAX_FUNCTIONS) throw new InputError('too many functions in interpolation block');
  const steps = functions.map((expression) => functionOf(expression, context));
  return steps.reduce((current, step) => step(current), value);
}

/** Ruby's `split(separator, limit)`: at most `limit` parts, the last one keeping the rest. */
function splitLimited(text: string, separator: string, limit: number): string[] {
  const parts = text.split(separator);
  return parts.length <= limit ? parts : [...parts.slice(0, limit - 1), parts.slice(limit - 1).join(separator)];
}

const TRUNCATE = /^truncate\(\s*(\d+)\s*,\s*(\d+)\s*\)?$/;
const SPLIT = /^split\('([^']*)'\)$/;

/** An error of a function (GitLab's `Functions::Base#error`). */
const functionError = (name: string, message: string) => new InputError(`error in \`${name}\` function: ${message}`);

/** A function that takes a string only. */
function onString(name: string, apply: (value: string) => unknown): (value: unknown) => unknown {
  return (value) => {
    if (typeof value !== 'string') throw functionError(name, `invalid input type: ${name} can only be used with string inputs`);
    return apply(value);
  };
}

/** An interpolation function by its expression (GitLab's `FunctionsStack`). */
function functionOf(expression: string, context: Context): (value: unknown) => unknown {
  const truncate = TRUNCATE.exec(expression);
  if (truncate) {
    const [offset, length] = [Number(truncate[1]), Number(truncate[2])];
    return onString('truncate', (value) => [...value].slice(offset, offset + length).join(''));
  }
  if (expression === 'expand_vars') {
    return onString('expand_vars', (value) => {
      try {
        // GitLab's `expand_existing`: a variable the pipeline does not have stays as written; a masked one is refused.
        return expandVariables(value, context.variables, { keepMissing: true, failOnMasked: context.masked });
      } catch (error) {
        if (error instanceof VariableExpansionError) throw functionError('expand_vars', `variable expansion error: ${error.message}`);
        throw error;
      }
    });
  }
  if (expression === 'posix_escape') return onString('posix_escape', shellEscape);
  const split = SPLIT.exec(expression);
  if (split) {
    const separator = split[1];
    return onString('split', (value) => {
      if (separator === '') throw functionError('split', 'invalid argument: separator cannot be empty');
      // Ruby's `split(' ')` splits on runs of whitespace.
      const parts = separator === ' ' ? value.split(/[\t\n\v\f\r ]+/) : value.split(separator);
      return parts.map(rubyStrip).filter((part) => part !== '');
    });
  }
  throw new InputError(`no function matching \`${expression}\`: check that the function name, arguments, and types are correct`);
}

/** Ruby's `Shellwords.shellescape`: every character but a safe few escaped by a backslash, a newline quoted, the empty string `''`. */
export function shellEscape(text: string): string {
  if (text === '') return "''";
  return text.replace(/[^A-Za-z0-9_\-.,:+/@\n]/gu, (character) => `\\${character}`).replace(/\n/g, "'\n'");
}

/** Ruby's `strip`: leading and trailing whitespace and NULs removed. */
const rubyStrip = (text: string): string => text.replace(/^[\0\t\n\v\f\r ]+|[\0\t\n\v\f\r ]+$/g, '');
