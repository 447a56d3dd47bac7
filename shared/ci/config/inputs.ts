/**
 * CI/CD inputs (GitLab's `spec:inputs` header and `$[[ ]]` interpolation, `Gitlab::Ci::Config::
 * Interpolation` and `Ci::Inputs`): a configuration file may start with a header document
 * (`spec: inputs:` before `---`) that declares the inputs it takes; the values given (by an
 * `include:`'s `inputs:`, or the pipeline's creation for the main file) are checked against it,
 * defaults filled in, and every `$[[ inputs.name ]]` of the file's content replaced. A block that
 * is a whole YAML value keeps the input's type (number, boolean, array); inside a longer string it
 * is written as text. Functions after a pipe: `truncate(offset, length)` and `expand_vars`.
 *
 * Errors are GitLab's messages (at most three, joined by `, ` as GitLab's interpolator does),
 * returned, never thrown. Pure.
 */

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
export function interpolate(header: Hash | undefined, content: Hash, args: Hash | undefined, variables: Readonly<Record<string, string>>): InterpolationResult {
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
    const value = replaceNode(content, { inputs: values.value }, variables, state);
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
    if (definition.regex !== undefined && definition.regex !== null && typeof definition.regex !== 'string') errors.push(`${where} input regex should be a string`);
    if (definition.options !== undefined && definition.options !== null) {
      if (!Array.isArray(definition.options)) errors.push(`${where} input options should be an array`);
      else if (definition.options.length > MAX_OPTIONS) errors.push(`${where} config cannot define more than ${MAX_OPTIONS} options`);
      else if (definition.options.some((option) => option === null)) errors.push(`${where} config options array cannot contain null values`);
    }
  }
  return errors.length > 0 ? { ok: false, error: errors.slice(0, 3).join(', ') } : { ok: true, value: inputs };
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
    const input = new Input(name, type as InputType, spec);
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

  constructor(
    private readonly name: string,
    private readonly type: InputType,
    private readonly spec: Hash,
  ) {}

  private get required(): boolean {
    return !Object.hasOwn(this.spec, 'default');
  }

  validate(param: unknown): void {
    if (this.required && param === null) {
      this.error('required value has not been provided');
      return;
    }
    if (!this.required) this.check(this.spec.default ?? null, true);
    if (param !== null) this.check(param, false);
  }

  actualValue(param: unknown): unknown {
    return this.coerce(param === null ? (this.spec.default ?? null) : param);
  }

  private check(raw: unknown, isDefault: boolean): void {
    const value = this.coerce(raw);
    const which = isDefault ? 'default' : 'provided';
    const options = Array.isArray(this.spec.options) ? this.spec.options : undefined;
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
    let pattern: RegExp;
    try {
      pattern = untrustedRegex(String(this.spec.regex));
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

/** A regular expression as GitLab's `UntrustedRegexp` reads one: `/pattern/flags` or a bare pattern. */
function untrustedRegex(source: string): RegExp {
  const slashed = /^\/(.*)\/([imx]*)$/s.exec(source);
  if (slashed) return new RegExp(slashed[1], slashed[2].replace('x', ''));
  return new RegExp(source);
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
}

/** Walks the content: keys and string values are interpolated, hashes and arrays entered (GitLab's `Interpolation::Config#replace!`). */
function replaceNode(node: unknown, context: Context, variables: Readonly<Record<string, string>>, state: { blocks: number }): unknown {
  if (typeof node === 'string') return replaceString(node, context, variables, state);
  if (Array.isArray(node)) return node.map((item) => replaceNode(item, context, variables, state));
  if (isHash(node)) {
    const out: Hash = {};
    for (const [key, value] of Object.entries(node)) out[String(replaceString(key, context, variables, state))] = replaceNode(value, context, variables, state);
    return out;
  }
  return node;
}

function replaceString(node: string, context: Context, variables: Readonly<Record<string, string>>, state: { blocks: number }): unknown {
  if (!node.includes('$[[')) return node;
  const matches = [...node.matchAll(BLOCK)];
  if (matches.length === 0) return node;
  state.blocks += matches.length;
  if (state.blocks > MAX_BLOCKS) throw new InputError('too many interpolation blocks');
  if (matches.length === 1 && matches[0][0].length === node.length) return evaluateBlock(matches[0][1], context, variables);
  return node.replace(BLOCK, (_block, data: string) => rubyString(evaluateBlock(data, context, variables)));
}

/** One `$[[ access | function | ... ]]` block's value (GitLab's `Interpolation::Block`). */
function evaluateBlock(data: string, context: Context, variables: Readonly<Record<string, string>>): unknown {
  const [access, ...functions] = data.split('|').map((part) => part.trim());
  const objects = splitLimited(access, '.', MAX_ACCESS_OBJECTS);
  if (objects.length <= 1) throw new InputError('invalid interpolation access pattern');
  if (Buffer.byteLength(access, 'utf8') > MAX_ACCESS_BYTES) throw new InputError('maximum interpolation expression size exceeded');
  let value: unknown = context;
  for (const key of objects) {
    if (!isHash(value) || !Object.hasOwn(value, key)) throw new InputError(`unknown interpolation key: \`${key}\``);
    value = value[key];
  }
  if (functions.length > MAX_FUNCTIONS) throw new InputError('too many functions in interpolation block');
  const steps = functions.map((expression) => functionOf(expression, variables));
  return steps.reduce((current, step) => step(current), value);
}

/** Ruby's `split(separator, limit)`: at most `limit` parts, the last one keeping the rest. */
function splitLimited(text: string, separator: string, limit: number): string[] {
  const parts = text.split(separator);
  return parts.length <= limit ? parts : [...parts.slice(0, limit - 1), parts.slice(limit - 1).join(separator)];
}

const TRUNCATE = /^truncate\(\s*(\d+)\s*,\s*(\d+)\s*\)?$/;
const VARIABLE = /\$([A-Za-z_][A-Za-z0-9_]*)|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** An interpolation function by its expression (GitLab's `FunctionsStack`). */
function functionOf(expression: string, variables: Readonly<Record<string, string>>): (value: unknown) => unknown {
  const truncate = TRUNCATE.exec(expression);
  if (truncate) {
    const [offset, length] = [Number(truncate[1]), Number(truncate[2])];
    return (value) => {
      if (typeof value !== 'string') throw new InputError('invalid input type: truncate can only be used with string inputs');
      return [...value].slice(offset, offset + length).join('');
    };
  }
  if (expression === 'expand_vars') {
    return (value) => {
      if (typeof value !== 'string') throw new InputError('invalid input type: expand_vars can only be used with string inputs');
      // GitLab's `expand_existing`: a variable the pipeline does not have stays as written.
      return value.replace(VARIABLE, (reference, plain?: string, braced?: string) => variables[(plain ?? braced)!] ?? reference);
    };
  }
  throw new InputError(`no function matching \`${expression}\`: check that the function name, arguments, and types are correct`);
}
