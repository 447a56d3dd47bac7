/**
 * The emoji names an award may carry: GitLab validates `name` against its emoji index
 * (TanukiEmoji, whose alpha codes are the Emojione/JoyPixels shortcodes: `slight_smile`,
 * `frowning2`, `basketball_player_tone1`) and stores an alias as its emoji's name
 * (`AwardEmojis::AddService#normalize_name`: `+1` is `thumbsup`, `satisfied` is `laughing`).
 *
 * The names come from `emojibase-data`'s JoyPixels shortcodes (only that file is bundled: a map
 * from code point to its shortcodes, ~6,200 names and aliases of ~3,800 emoji).
 * Custom emoji (GitLab's group-level `CustomEmoji`) do not exist here, so no other name is valid.
 */
import shortcodes from 'emojibase-data/en/shortcodes/joypixels.json' with { type: 'json' };

/**
 * GitLab's aliases of award names, to the name it stores: the shortcodes of 👍 and 👎 (they feed
 * `upvotes`/`downvotes`) and the well-known aliases whose name both sets agree on.
 */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ...aliasesOf('1F44D', 'thumbsup'),
  ...aliasesOf('1F44E', 'thumbsdown'),
  ['satisfied', 'laughing'],
  ['hankey', 'poop'],
]);

/**
 * Every shortcode of the set. Any other name is stored as given: TanukiEmoji's names are the
 * older Emojione ones (`basketball_player_tone1`), which JoyPixels keeps as aliases of its newer
 * names (`person_bouncing_ball_tone1`), so mapping JoyPixels aliases to JoyPixels names would
 * store names GitLab does not; clients send GitLab's names, which are kept.
 */
const NAMES: ReadonlySet<string> = new Set(Object.values(dataset()).flat());

/** Internal: the dataset, a map from code point to its shortcodes. */
function dataset(): Record<string, string | string[]> {
  return shortcodes;
}

/** Internal: the shortcodes of one emoji of the dataset, each mapped to `name`. */
function aliasesOf(codePoint: string, name: string): [string, string][] {
  return [dataset()[codePoint] ?? []].flat().map((alias) => [alias, name]);
}

/**
 * The stored name of an award name (aliases resolved), or `undefined` when it is not an emoji
 * name GitLab would accept.
 * @example
 * emojiName('+1'); // 'thumbsup'
 * emojiName('not_an_emoji'); // undefined
 */
export function emojiName(name: string): string | undefined {
  const alias = ALIASES.get(name);
  if (alias) return alias;
  return NAMES.has(name) ? name : undefined;
}
