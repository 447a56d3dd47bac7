/**
 * A small strict XML reader for the JUnit reports jobs upload (no XML library is a dependency of
 * the project): elements, attributes, text, CDATA, comments and processing instructions; the five
 * predefined entities and character references. A document type declaration is refused, so no
 * entity is ever declared or expanded (no XXE, no entity expansion). Several documents may follow
 * each other (a gzip stream of several reports, as gitlab-runner uploads them, read as one text).
 * Malformed input throws {@link XmlError}; nothing is ever fetched or resolved.
 */
export class XmlError extends Error {}

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (its character data and CDATA, children's text excluded). */
  text: string;
}

const NAME = /[A-Za-z_:\u00C0-\uFFFF][-A-Za-z0-9_.:\u00B7\u00C0-\uFFFF]*/y;
const SPACE = /[ \t\r\n]*/y;
/** Elements may nest this deep (reports are shallow; it bounds the work on hostile input). */
const MAX_DEPTH = 256;

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** The position's line and column, for messages. */
function where(text: string, at: number): string {
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return `${line}:${at - before.lastIndexOf('\n')}`;
}

function decode(raw: string, text: string, at: number): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&([^;&<]*);|&/g, (match, ref: string | undefined) => {
    if (ref === undefined) throw new XmlError(`${where(text, at)}: '&' not part of a reference`);
    if (ref in PREDEFINED) return PREDEFINED[ref];
    const numeric = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(ref);
    if (!numeric) throw new XmlError(`${where(text, at)}: entity '${ref}' not defined`);
    const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : Number(numeric[2]);
    if (!(code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff))) {
      throw new XmlError(`${where(text, at)}: invalid character reference ${match}`);
    }
    return String.fromCodePoint(code);
  });
}

/** Reads every document of `text`: their root elements in order. */
export function parseXmlDocuments(text: string): XmlElement[] {
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const roots: XmlElement[] = [];

  const fail = (message: string): never => {
    throw new XmlError(`${where(text, at)}: ${message}`);
  };
  const skipSpace = () => {
    SPACE.lastIndex = at;
    SPACE.exec(text);
    at = SPACE.lastIndex;
  };
  const readName = (): string => {
    NAME.lastIndex = at;
    const match = NAME.exec(text);
    if (!match) fail('a name was expected');
    at = NAME.lastIndex;
    return match![0];
  };
  const skipUntil = (end: string, what: string): string => {
    const found = text.indexOf(end, at);
    if (found < 0) fail(`${what} not closed`);
    const body = text.slice(at, found);
    at = found + end.length;
    return body;
  };
  /** Comments and processing instructions (the XML declaration too) where markup may be; true when one was skipped. */
  const skipMisc = (): boolean => {
    if (text.startsWith('<!--', at)) {
      at += 4;
      if (skipUntil('-->', 'comment').includes('--')) fail("'--' inside a comment");
      return true;
    }
    if (text.startsWith('<?', at)) {
      at += 2;
      skipUntil('?>', 'processing instruction');
      return true;
    }
    if (text.startsWith('<!DOCTYPE', at) || text.startsWith('<!doctype', at)) fail('a document type declaration is not allowed');
    return false;
  };

  const readElement = (): XmlElement => {
    const stack: XmlElement[] = [];
    let root: XmlElement | undefined;
    for (;;) {
      // At '<' of a start tag.
      at += 1;
      const element: XmlElement = { name: readName(), attributes: {}, children: [], text: '' };
      if (stack.length > 0) stack[stack.length - 1].children.push(element);
      else root = element;
      for (;;) {
        const before = at;
        skipSpace();
        if (text.startsWith('/>', at) || text[at] === '>') break;
        if (at === before) fail('a space was expected before an attribute');
        const name = readName();
        skipSpace();
        if (text[at] !== '=') fail(`'=' was expected after attribute ${name}`);
        at += 1;
        skipSpace();
        const quote = text[at];
        if (quote !== '"' && quote !== "'") fail('a quoted attribute value was expected');
        at += 1;
        const valueAt = at;
        const raw = skipUntil(quote, 'attribute value');
        if (raw.includes('<')) fail("'<' inside an attribute value");
        if (Object.hasOwn(element.attributes, name)) fail(`attribute ${name} redefined`);
        element.attributes[name] = decode(raw, text, valueAt).replace(/[\t\r\n]/g, ' ');
      }
      if (text.startsWith('/>', at)) {
        at += 2;
        if (stack.length === 0) return root!;
      } else {
        at += 1;
        stack.push(element);
        if (stack.length > MAX_DEPTH) fail(`elements nested deeper than ${MAX_DEPTH}`);
      }
      // Content of the innermost open element, until a start tag (loop) or its end tag.
      for (;;) {
        const open = stack[stack.length - 1];
        const next = text.indexOf('<', at);
        if (next < 0) fail(`element ${open.name} not closed`);
        if (next > at) {
          const raw = text.slice(at, next);
          if (raw.includes(']]>')) fail("']]>' in text");
          open.text += decode(raw, text, at);
          at = next;
        }
        if (text.startsWith('<![CDATA[', at)) {
          at += 9;
          open.text += skipUntil(']]>', 'CDATA section');
        } else if (text.startsWith('</', at)) {
          at += 2;
          const name = readName();
          if (name !== open.name) fail(`end tag ${name} does not match ${open.name}`);
          skipSpace();
          if (text[at] !== '>') fail("'>' was expected");
          at += 1;
          stack.pop();
          if (stack.length === 0) return root!;
        } else if (!skipMisc()) break;
      }
    }
  };

  for (;;) {
    skipSpace();
    if (at >= text.length) break;
    if (skipMisc()) continue;
    if (text[at] !== '<') fail('content outside of the root element');
    roots.push(readElement());
  }
  if (roots.length === 0) fail('the document is empty');
  return roots;
}
