/**
 * The users a text mentions, as GitLab's reference extractor finds them for todos
 * (`Mentionable#mentioned_users` and `#directly_addressed_users`):
 *
 * - a mention is `@username` not preceded by a word character, outside code (fenced blocks and
 *   inline code spans); the same user mentioned twice counts once;
 * - a user is directly addressed when their mention opens a paragraph (several mentions in a row
 *   open it together: `@alice @bob have a look`); a mention inside a list item, a quote or a
 *   `>>>` block does not address anyone (GitLab's `location: :beginning` of a top-level paragraph).
 *
 * Group mentions (`@group` for its members) and `@all` are not expanded: only users' usernames
 * name todo recipients here.
 */

/** GitLab's username shape (`Gitlab::PathRegex`): letters, digits, `_`, `-`, `.`, not ending with `.`. */
const USERNAME = String.raw`[A-Za-z0-9_][A-Za-z0-9_.\-]*[A-Za-z0-9_\-]|[A-Za-z0-9_]`;
const MENTION = new RegExp(String.raw`(?<![A-Za-z0-9_@])@(${USERNAME})(?![A-Za-z0-9_\-]|\.[A-Za-z0-9_])`, 'g');
/** A paragraph opened by mentions: `@a @b …`, `@a, @b …` (whitespace or a comma after each). */
const ADDRESSING = new RegExp(String.raw`^(?:@(?:${USERNAME})(?:,?\s+|,?$))+`);

export interface Mentions {
  /** The usernames that open a paragraph, lowercased, in order of appearance. */
  directlyAddressed: string[];
  /** Every mentioned username, lowercased, in order of appearance (the directly addressed too). */
  mentioned: string[];
}

/** Internal: the text without fenced code blocks and inline code (blanked, so lines stay apart). */
function withoutCode(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?(?:^\1[^\n]*$|(?![\s\S]))/gm, '\n').replace(/(`+)[^`\n][\s\S]*?\1/g, ' ');
}

/** Internal: the paragraphs of a text that are plain paragraphs (not list items, quotes or `>>>` blocks). */
function plainParagraphs(text: string): string[] {
  const blocks = text.replace(/^>>>[^\n]*\n[\s\S]*?^>>>[^\n]*$/gm, '\n');
  return blocks
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/^\s+/, ''))
    .filter((paragraph) => !/^(?:[-*+]\s|\d+[.)]\s|>)/.test(paragraph));
}

const unique = (names: string[]) => [...new Set(names.map((name) => name.toLowerCase()))];

/**
 * The users `text` mentions and directly addresses.
 * @example
 * textMentions('@alice what do you think? cc @bob'); // { directlyAddressed: ['alice'], mentioned: ['alice', 'bob'] }
 */
export function textMentions(text: string): Mentions {
  const prose = withoutCode(text);
  const mentioned = unique([...prose.matchAll(MENTION)].map((match) => match[1]));
  const directlyAddressed = unique(
    plainParagraphs(prose).flatMap((paragraph) => {
      const opening = ADDRESSING.exec(paragraph)?.[0] ?? '';
      return [...opening.matchAll(MENTION)].map((match) => match[1]);
    }),
  );
  return { directlyAddressed, mentioned };
}
