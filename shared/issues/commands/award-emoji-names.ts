/**
 * The emoji names an award may carry: GitLab validates `name` against its emoji index
 * (TanukiEmoji, the gemoji names) and normalizes aliases (`+1` is `thumbsup`). This embeds the
 * names people award in practice (faces, hands, hearts, symbols, common objects and animals), not
 * the whole index; a name outside it is refused as GitLab refuses an unknown one.
 */

/** GitLab's aliases of award names, to the name it stores. */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ['+1', 'thumbsup'],
  ['-1', 'thumbsdown'],
  ['thumbs_up', 'thumbsup'],
  ['thumbs_down', 'thumbsdown'],
  ['satisfied', 'laughing'],
  ['hankey', 'poop'],
]);

const NAMES = new Set(
  `
thumbsup thumbsdown ok_hand clap wave raised_hands pray muscle point_up point_down point_left point_right
fist punch v metal call_me handshake writing_hand raised_hand vulcan crossed_fingers open_hands palms_up_together
smile smiley grinning grin laughing joy rofl slight_smile upside_down wink blush innocent heart_eyes star_struck
kissing_heart kissing relaxed yum stuck_out_tongue stuck_out_tongue_winking_eye stuck_out_tongue_closed_eyes
money_mouth hugging hugs thinking zipper_mouth raised_eyebrow neutral_face expressionless no_mouth smirk unamused
rolling_eyes grimacing lying_face relieved pensive sleepy drooling_face sleeping mask thermometer_face head_bandage
nauseated_face sneezing_face dizzy_face cowboy sunglasses nerd confused worried slight_frown frowning2 open_mouth
hushed astonished flushed pleading_face frowning anguished fearful cold_sweat disappointed_relieved cry sob scream
confounded persevere disappointed sweat weary tired_face triumph rage angry smiling_imp imp skull poop clown
japanese_ogre japanese_goblin ghost alien space_invader robot smiley_cat smile_cat joy_cat heart_eyes_cat
see_no_evil hear_no_evil speak_no_evil partying_face exploding_head face_palm shrug facepalm
heart orange_heart yellow_heart green_heart blue_heart purple_heart black_heart white_heart brown_heart
broken_heart heartpulse heartbeat sparkling_heart two_hearts revolving_hearts cupid gift_heart
100 fire sparkles star star2 dizzy boom collision zap tada confetti_ball balloon gift trophy medal first_place
rocket eyes eye bulb bell bellhop_bell bookmark memo pencil pencil2 lock unlock key hammer wrench tools gear
nut_and_bolt link paperclip pushpin scissors package mag mag_right calendar chart_with_upwards_trend
chart_with_downwards_trend bar_chart clipboard hourglass stopwatch alarm_clock watch computer keyboard
desktop printer floppy_disk cd dvd camera tv radio phone iphone battery electric_plug coffee tea beer beers
champagne wine_glass cocktail pizza hamburger fries cake birthday cookie doughnut apple banana cherries
grapes lemon peach pear strawberry watermelon tomato avocado egg bread cheese popcorn
dog cat mouse hamster rabbit fox bear panda_face koala tiger lion_face cow pig frog monkey_face chicken
penguin bird baby_chick owl bat wolf horse unicorn bee bug butterfly snail turtle snake dragon whale dolphin
fish octopus crab shark tanuki sloth
sunny cloud umbrella snowflake rainbow ocean earth_americas earth_africa earth_asia globe_with_meridians
moon crescent_moon full_moon new_moon sun_with_face
white_check_mark heavy_check_mark ballot_box_with_check x negative_squared_cross_mark heavy_multiplication_x
question grey_question exclamation grey_exclamation bangbang interrobang warning no_entry no_entry_sign
stop_sign construction rotating_light checkered_flag triangular_flag_on_post waving_white_flag
arrow_up arrow_down arrow_left arrow_right arrows_counterclockwise repeat recycle infinity
heavy_plus_sign heavy_minus_sign heavy_division_sign
red_circle large_blue_circle white_circle black_circle green_circle yellow_circle
speech_balloon thought_balloon zzz sweat_drops dash notes musical_note loudspeaker mega
lipstick crown gem ring money_with_wings moneybag dollar euro credit_card
ok new free up cool sos id vs
runner walking dancer man_dancing dancers muscle_tone1 baby boy girl man woman older_man older_woman
ninja detective cop santa angel superhero mage zombie
house office school hospital bank hotel construction_site factory bridge_at_night
car taxi bus ambulance fire_engine police_car truck bike ship airplane helicopter train
soccer basketball football baseball tennis volleyball 8ball golf dart bowling video_game game_die jigsaw
art tickets performing_arts guitar trumpet violin drum microphone headphones
nail_care selfie brain bone tooth
  `
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * The stored name of an award name (aliases resolved), or `undefined` when it is not an emoji
 * name GitLab would accept.
 * @example
 * emojiName('+1'); // 'thumbsup'
 * emojiName('not_an_emoji'); // undefined
 */
export function emojiName(name: string): string | undefined {
  const stored = ALIASES.get(name) ?? name;
  return NAMES.has(stored) ? stored : undefined;
}
