/**
 * GitLab's CI/CD variable expressions (`rules: if:`, `only: variables:`): `$VAR`, string and
 * `null` literals, `==`, `!=`, `=~ /regex/flags`, `!~`, `&&`, `||` and parentheses, `&&` binding
 * tighter than `||`, as `Gitlab::Ci::Pipeline::Expression` evaluates them. Pure.
 */

type Token =
  | { kind: 'variable'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'regex'; source: string; flags: string }
  | { kind: 'null' }
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
        const regex = /^\/((?:[^/\\]|\\.)*)\/([a-z]*)/.exec(after);
        if (regex) {
          tokens.push({ kind: 'regex', source: regex[1], flags: regex[2] });
          i += regex[0].length;
        }
      }
      continue;
    }
    const keyword = /^null\b/.exec(rest);
    if (keyword) {
      tokens.push({ kind: 'null' });
      i += keyword[0].length;
      continue;
    }
    throw new ExpressionError(`invalid expression syntax`);
  }
  return tokens;
}

type Value = string | null | { regex: RegExp };

/** Evaluates an expression with the given variables; throws {@link ExpressionError} when it does not parse. */
export function evaluateExpression(text: string, variables: Readonly<Record<string, string>>): boolean {
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
    if (token.kind === 'regex') {
      const flags = token.flags.replace(/[^imsu]/g, '');
      try {
        return { regex: new RegExp(token.source, flags) };
      } catch {
        throw new ExpressionError('invalid expression syntax');
      }
    }
    throw new ExpressionError('invalid expression syntax');
  };

  const truthy = (value: Value) => value !== null && value !== '' && typeof value === 'string';

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
      const l = typeof left === 'object' && left !== null ? null : left;
      switch (token.op) {
        case '==':
          return l === (typeof right === 'object' && right !== null ? null : right);
        case '!=':
          return l !== (typeof right === 'object' && right !== null ? null : right);
        case '=~':
        case '!~': {
          if (typeof right !== 'object' || right === null) throw new ExpressionError('invalid expression syntax');
          const matches = l !== null && right.regex.test(l);
          return token.op === '=~' ? matches : !matches;
        }
      }
    }
    return truthy(left);
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
