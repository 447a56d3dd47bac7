/**
 * GitLab's CI/CD variable expressions (`rules: if:`, `only: variables:`, an input's `rules: if:`):
 * `$VAR`, `$[[ inputs.name ]]`, string, `null`, `true` and `false` literals, `==`, `!=`,
 * `=~ /regex/flags`, `!~`, `&&`, `||` and parentheses, `&&` binding tighter than `||`, as
 * `Gitlab::Ci::Pipeline::Expression` evaluates them. Patterns are compiled as untrusted
 * (`untrusted-regexp.ts`). Pure.
 */
import { compileUntrusted, PATTERN_FLAGS, type UntrustedRegexp } from './untrusted-regexp';

type Token =
  | { kind: 'variable'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'regex'; source: string; flags: string }
  | { kind: 'null' }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'input'; name: string }
  | { kind: 'op'; op: '==' | '!=' | '=~' | '!~' | '&&' | '||' | '(' | ')' };

export class ExpressionError extends Error {}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const space = /^\s+/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    const input = /^\$\[\[\s*inputs\.(\w+)\s*\]\]/.exec(rest);
    if (input) {
      tokens.push({ kind: 'input', name: input[1] });
      i += input[0].length;
      continue;
    }
    const variable = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/.exec(rest);
    if (variable) {
      tokens.push({ kind: 'variable', name: variable[1] });
      i += variable[0].length;
      continue;
    }
    const quoted = /^"((?:[^"\\]|\\.)*)"|^'((?:[^'\\]|\\.)*)'/.exec(rest);
    if (quoted) {
      tokens.push({ kind: 'string', value: (quoted[1] ?? quoted[2]).replace(/\\(.)/g, '$1') });
      i += quoted[0].length;
      continue;
    }
    const op = /^(==|!=|=~|!~|&&|\|\||\(|\))/.exec(rest);
    if (op) {
      const last = tokens[tokens.length - 1];
      // A regex follows a match operator.
      tokens.push({ kind: 'op', op: op[1] as Extract<Token, { kind: 'op' }>['op'] });
      i += op[0].length;
      if ((op[1] === '=~' || op[1] === '!~') && last) {
        const after = text.slice(i).replace(/^\s+/, '');
        i = text.length - after.length;
        const regex = /^\/((?:[^/\\]|\\.)*)\/([A-Za-z]*)/.exec(after);
        if (regex) {
          tokens.push({ kind: 'regex', source: regex[1], flags: regex[2] });
          i += regex[0].length;
        }
      }
      continue;
    }
    const keyword = /^(null|true|false)\b/.exec(rest);
    if (keyword) {
      tokens.push(keyword[1] === 'null' ? { kind: 'null' } : { kind: 'boolean', value: keyword[1] === 'true' });
      i += keyword[0].length;
      continue;
    }
    throw new ExpressionError(`invalid expression syntax`);
  }
  return tokens;
}

class Pattern {
  constructor(readonly regex: UntrustedRegexp) {}
}

/** An operand's value: a variable's or literal's text, an input's value (any type), `null`, or a pattern. */
type Value = unknown;

/** Ruby's `present?`: not nil, false, empty text, an empty array or hash. */
function present(value: Value): boolean {
  if (value === null || value === undefined || value === false || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object' && !(value instanceof Pattern)) return Object.keys(value).length > 0;
  return true;
}

const equal = (left: Value, right: Value): boolean =>
  left === right || (typeof left === 'object' && typeof right === 'object' && left !== null && right !== null && JSON.stringify(left) === JSON.stringify(right));

/**
 * Evaluates an expression with the given variables (and, for an input's `rules:`, the inputs);
 * throws {@link ExpressionError} when it does not parse.
 */
export function evaluateExpression(text: string, variables: Readonly<Record<string, string>>, inputs: Readonly<Record<string, unknown>> = {}): boolean {
  const tokens = tokenize(text);
  let position = 0;
  const peek = () => tokens[position];
  const isOp = (op: string) => {
    const token = peek();
    return token?.kind === 'op' && token.op === op;
  };

  const operand = (): Value => {
    const token = tokens[position++];
    if (!token) throw new ExpressionError('invalid expression syntax');
    if (token.kind === 'variable') return Object.hasOwn(variables, token.name) ? variables[token.name] : null;
    if (token.kind === 'string') return token.value;
    if (token.kind === 'null') return null;
    if (token.kind === 'boolean') return token.value;
    if (token.kind === 'input') return Object.hasOwn(inputs, token.name) ? (inputs[token.name] ?? null) : null;
    if (token.kind === 'regex') {
      if (!PATTERN_FLAGS.test(token.flags)) throw new ExpressionError('invalid expression syntax');
      try {
        return new Pattern(compileUntrusted(token.source.replace(/\\\//g, '/'), token.flags));
      } catch {
        throw new ExpressionError('invalid expression syntax');
      }
    }
    throw new ExpressionError('invalid expression syntax');
  };


  const comparison = (): boolean => {
    if (isOp('(')) {
      position++;
      const inner = disjunction();
      if (!isOp(')')) throw new ExpressionError('invalid expression syntax');
      position++;
      return inner;
    }
    const left = operand();
    const token = peek();
    if (token?.kind === 'op' && ['==', '!=', '=~', '!~'].includes(token.op)) {
      position++;
      const right = operand();
      const l = left instanceof Pattern ? null : left;
      const r = right instanceof Pattern ? null : right;
      switch (token.op) {
        case '==':
          return equal(l, r);
        case '!=':
          return !equal(l, r);
        case '=~':
        case '!~': {
          if (!(right instanceof Pattern)) throw new ExpressionError('invalid expression syntax');
          const matches = l !== null && l !== undefined && right.regex.test(typeof l === 'string' ? l : JSON.stringify(l));
          return token.op === '=~' ? matches : !matches;
        }
      }
    }
    return !(left instanceof Pattern) && present(left);
  };

  const conjunction = (): boolean => {
    let result = comparison();
    while (isOp('&&')) {
      position++;
      const right = comparison();
      result = result && right;
    }
    return result;
  };

  const disjunction = (): boolean => {
    let result = conjunction();
    while (isOp('||')) {
      position++;
      const right = conjunction();
      result = result || right;
    }
    return result;
  };

  const result = disjunction();
  if (position !== tokens.length) throw new ExpressionError('invalid expression syntax');
  return result;
}
