/** Award names: GitLab's emoji names are accepted, aliases stored as their name, others refused. */
import { describe, expect, it } from 'vitest';
import { emojiName } from '../../shared/issues/commands/award-emoji-names';

describe('emojiName', () => {
  it('accepts the names people award', () => {
    for (const name of ['thumbsup', 'thumbsdown', 'smile', 'tada', 'heart', 'rocket', 'eyes', '100', 'white_check_mark']) {
      expect(emojiName(name)).toBe(name);
    }
  });

  it("accepts the rest of GitLab's emoji set (its Emojione/JoyPixels names, skin tones, flags)", () => {
    for (const name of ['slight_smile', 'frowning2', 'basketball_player_tone1', 'anger_right', 'flag_us', 'alembic', 'wilted_rose']) {
      expect(emojiName(name)).toBe(name);
    }
  });

  it("stores GitLab's aliases as their name", () => {
    expect(emojiName('satisfied')).toBe('laughing');
    expect(emojiName('thumbs_up')).toBe('thumbsup');
    expect(emojiName('thumbup')).toBe('thumbsup');
    expect(emojiName('+1')).toBe('thumbsup');
    expect(emojiName('-1')).toBe('thumbsdown');
  });

  it('refuses what is not an emoji name', () => {
    for (const name of ['', 'not_an_emoji', 'Thumbsup', ':thumbsup:', 'thumbsup ', 'constructor', '__proto__', 'toString']) {
      expect(emojiName(name)).toBeUndefined();
    }
  });
});
