/**
 * Project labels: GitLab's model rules (title and colour validation, named colours), lookups by
 * id or name, and the race-safe writes built on the name claim of `data/labels.ts`.
 *
 * Names are unique per project case-insensitively (`Bug` and `bug` cannot both exist, and a
 * lookup by name ignores case). GitLab's database compares titles case-sensitively; we choose the
 * stricter rule because clients (and `ensureLabels`) treat names typed in another case as the
 * same label.
 */
import { deleteLabel, findLabelByName, getLabel, insertLabel, listLabels, updateLabel, type Label, type LabelFields } from './store/labels';
import type { Project } from '../projects';
import { ConflictError, NotFoundError, ValidationError } from '../platform/http/errors';

/** GitLab's `Label::DEFAULT_COLOR`, given to labels created implicitly (an issue naming a new label). */
export const DEFAULT_LABEL_COLOR = '#6699cc';

const MAX_NAME_LENGTH = 255;
/** Keeps an item well below DynamoDB's 400 KB (GitLab sets no limit of its own). */
const MAX_DESCRIPTION_LENGTH = 65_535;
/** How often a write is retried after the label changed under it. */
const MAX_ATTEMPTS = 5;

const HEX_COLOR = /^#(?:[0-9A-Fa-f]{3}){1,2}$/;

/** GitLab's `Gitlab::Color::Constants::COLOR_NAME_TO_HEX`: the CSS colour keywords. */
const NAMED_COLORS: Record<string, string> = Object.fromEntries(
  (
    'black:000000 silver:C0C0C0 gray:808080 white:FFFFFF maroon:800000 red:FF0000 purple:800080 ' +
    'fuchsia:FF00FF green:008000 lime:00FF00 olive:808000 yellow:FFFF00 navy:000080 blue:0000FF ' +
    'teal:008080 aqua:00FFFF orange:FFA500 aliceblue:F0F8FF antiquewhite:FAEBD7 aquamarine:7FFFD4 ' +
    'azure:F0FFFF beige:F5F5DC bisque:FFE4C4 blanchedalmond:FFEBCD blueviolet:8A2BE2 brown:A52A2A ' +
    'burlywood:DEB887 cadetblue:5F9EA0 chartreuse:7FFF00 chocolate:D2691E coral:FF7F50 ' +
    'cornflowerblue:6495ED cornsilk:FFF8DC crimson:DC143C darkblue:00008B darkcyan:008B8B ' +
    'darkgoldenrod:B8860B darkgray:A9A9A9 darkgreen:006400 darkgrey:A9A9A9 darkkhaki:BDB76B ' +
    'darkmagenta:8B008B darkolivegreen:556B2F darkorange:FF8C00 darkorchid:9932CC darkred:8B0000 ' +
    'darksalmon:E9967A darkseagreen:8FBC8F darkslateblue:483D8B darkslategray:2F4F4F ' +
    'darkslategrey:2F4F4F darkturquoise:00CED1 darkviolet:9400D3 deeppink:FF1493 deepskyblue:00BFFF ' +
    'dimgray:696969 dimgrey:696969 dodgerblue:1E90FF firebrick:B22222 floralwhite:FFFAF0 ' +
    'forestgreen:228B22 gainsboro:DCDCDC ghostwhite:F8F8FF gold:FFD700 goldenrod:DAA520 ' +
    'greenyellow:ADFF2F grey:808080 honeydew:F0FFF0 hotpink:FF69B4 indianred:CD5C5C indigo:4B0082 ' +
    'ivory:FFFFF0 khaki:F0E68C lavender:E6E6FA lavenderblush:FFF0F5 lawngreen:7CFC00 ' +
    'lemonchiffon:FFFACD lightblue:ADD8E6 lightcoral:F08080 lightcyan:E0FFFF ' +
    'lightgoldenrodyellow:FAFAD2 lightgray:D3D3D3 lightgreen:90EE90 lightgrey:D3D3D3 lightpink:FFB6C1 ' +
    'lightsalmon:FFA07A lightseagreen:20B2AA lightskyblue:87CEFA lightslategray:778899 ' +
    'lightslategrey:778899 lightsteelblue:B0C4DE lightyellow:FFFFE0 limegreen:32CD32 linen:FAF0E6 ' +
    'mediumaquamarine:66CDAA mediumblue:0000CD mediumorchid:BA55D3 mediumpurple:9370DB ' +
    'mediumseagreen:3CB371 mediumslateblue:7B68EE mediumspringgreen:00FA9A mediumturquoise:48D1CC ' +
    'mediumvioletred:C71585 midnightblue:191970 mintcream:F5FFFA mistyrose:FFE4E1 moccasin:FFE4B5 ' +
    'navajowhite:FFDEAD oldlace:FDF5E6 olivedrab:6B8E23 orangered:FF4500 orchid:DA70D6 ' +
    'palegoldenrod:EEE8AA palegreen:98FB98 paleturquoise:AFEEEE palevioletred:DB7093 ' +
    'papayawhip:FFEFD5 peachpuff:FFDAB9 peru:CD853F pink:FFC0CB plum:DDA0DD powderblue:B0E0E6 ' +
    'rosybrown:BC8F8F royalblue:4169E1 saddlebrown:8B4513 salmon:FA8072 sandybrown:F4A460 ' +
    'seagreen:2E8B57 seashell:FFF5EE sienna:A0522D skyblue:87CEEB slateblue:6A5ACD slategray:708090 ' +
    'slategrey:708090 snow:FFFAFA springgreen:00FF7F steelblue:4682B4 tan:D2B48C thistle:D8BFD8 ' +
    'tomato:FF6347 turquoise:40E0D0 violet:EE82EE wheat:F5DEB3 whitesmoke:F5F5F5 yellowgreen:9ACD32 ' +
    'rebeccapurple:663399'
  )
    .split(' ')
    .map((entry) => {
      const [name, hex] = entry.split(':');
      return [name, `#${hex}`];
    }),
);

/** A colour as GitLab stores it: a CSS keyword becomes its `#RRGGBB`, hex stays as given; `undefined` if invalid. */
export function normalizeColor(color: string): string | undefined {
  const value = color.trim();
  const named = NAMED_COLORS[value.toLowerCase()];
  if (named) return named;
  return HEX_COLOR.test(value) ? value : undefined;
}

/** GitLab's `Gitlab::Color#contrast`: dark text on light colours (channel sum above 500), white otherwise. */
export function textColorFor(color: string): '#333333' | '#FFFFFF' {
  if (!HEX_COLOR.test(color)) return '#FFFFFF';
  const hex = color.slice(1);
  const channels = hex.length === 3 ? [...hex].map((c) => parseInt(c + c, 16)) : [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return channels.reduce((sum, c) => sum + c, 0) > 500 ? '#333333' : '#FFFFFF';
}

/** What a client asks for; `undefined` leaves a field as it is (`null` priority removes it). */
export interface LabelInput {
  name?: string;
  color?: string;
  description?: string;
  priority?: number | null;
}

/**
 * Internal: `input` applied to `current` under GitLab's model validations (title present, no
 * comma, at most 255 characters; a valid colour; priority not negative). Throws GitLab's
 * `{"message":{"title":["is invalid"]}}`.
 */
function labelFieldsFrom(input: LabelInput, current: LabelFields): LabelFields {
  const errors: Record<string, string[]> = {};
  const name = input.name === undefined ? current.name : input.name.trim();
  if (input.name !== undefined) {
    const titleErrors = titleErrorsOf(name);
    if (titleErrors.length > 0) errors.title = titleErrors;
  }
  let color = current.color;
  if (input.color !== undefined) {
    const normalized = normalizeColor(input.color);
    if (normalized === undefined) errors.color = ['must be a valid color code'];
    else color = normalized;
  }
  if (input.description !== undefined && input.description.length > MAX_DESCRIPTION_LENGTH) {
    errors.description = [`is too long (maximum is ${MAX_DESCRIPTION_LENGTH} characters)`];
  }
  if (typeof input.priority === 'number' && input.priority < 0) errors.priority = ['must be greater than or equal to 0'];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return {
    name,
    color,
    description: input.description === undefined ? current.description : input.description,
    priority: input.priority === undefined ? current.priority : input.priority,
  };
}

/** Internal: GitLab's title validations, on a trimmed name. */
function titleErrorsOf(name: string): string[] {
  if (name === '') return ["can't be blank"];
  const errors: string[] = [];
  if (name.includes(',')) errors.push('is invalid');
  if ([...name].length > MAX_NAME_LENGTH) errors.push(`is too long (maximum is ${MAX_NAME_LENGTH} characters)`);
  return errors;
}

/**
 * A label of the project by id or by name (case-insensitive), like GitLab's `find_label`: an
 * all-digits value is tried as an id first, then as a name. 404 `Label Not Found` otherwise.
 */
export async function findLabelOrNotFound(projectId: number, idOrName: string | number): Promise<Label> {
  const value = String(idOrName);
  const byId = /^\d+$/.test(value) ? await getLabel(projectId, Number(value)) : undefined;
  const label = byId ?? (await findLabelByName(projectId, value));
  if (!label) throw new NotFoundError('Label');
  return label;
}

/**
 * A project's labels ordered by name (case-insensitively, then by id), optionally only those
 * whose name or description contains `search` (case-insensitive, as GitLab's ILIKE). A project's
 * labels are one bounded partition range, read whole and paged in memory.
 */
export async function listProjectLabels(projectId: number, search?: string): Promise<Label[]> {
  const term = search?.toLowerCase();
  const labels = (await listLabels(projectId)).filter(
    (label) => !term || label.name.toLowerCase().includes(term) || (label.description ?? '').toLowerCase().includes(term),
  );
  return labels.sort((a, b) => compareNames(a.name, b.name) || a.id - b.id);
}

const compareNames = (a: string, b: string) => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
};

/**
 * Creates a label: 409 `Label already exists` when the project has one of that name (in any
 * case), including when a concurrent request created it first.
 *
 * @example
 * const label = await createLabel(project, { name: 'bug', color: 'red' }); // color '#FF0000'
 */
export async function createLabel(project: Project, input: LabelInput & { name: string; color: string }): Promise<Label> {
  const fields = labelFieldsFrom(input, { name: '', color: DEFAULT_LABEL_COLOR, description: null, priority: null });
  const result = await insertLabel(project.id, fields);
  if (result === 'project_gone') throw new NotFoundError('Project');
  if (result === 'name_taken') throw new ConflictError('Label already exists');
  return result;
}

/**
 * Edits a label: renaming onto another label's name answers GitLab's model error
 * `{"message":{"title":["has already been taken"]}}` (400). A label changed concurrently is
 * read again and the edit re-applied (fields are set, not incremented, so that is safe); a label
 * deleted meanwhile is 404.
 */
export async function editLabel(label: Label, input: LabelInput): Promise<Label> {
  let current = label;
  for (let attempt = 1; ; attempt++) {
    const result = await updateLabel(current, labelFieldsFrom(input, current));
    if (typeof result === 'object') return result;
    if (result === 'project_gone') throw new NotFoundError('Project');
    if (result === 'name_taken') throw new ValidationError({ title: ['has already been taken'] });
    const fresh = await getLabel(label.projectId, label.id);
    if (!fresh) throw new NotFoundError('Label');
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('Label was changed concurrently, try again');
    current = fresh;
  }
}

/** Deletes a label and releases its name; 404 when it is gone already (a concurrent delete). */
export async function removeLabel(label: Label): Promise<void> {
  let current = label;
  for (let attempt = 1; ; attempt++) {
    if ((await deleteLabel(current)) === 'deleted') return;
    const fresh = await getLabel(label.projectId, label.id);
    if (!fresh) throw new NotFoundError('Label');
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('Label was changed concurrently, try again');
    current = fresh;
  }
}

/**
 * The project's labels of the given names, creating (with {@link DEFAULT_LABEL_COLOR}) those that
 * do not exist yet; for the issues code, when an issue names labels. Names are trimmed and
 * matched case-insensitively; duplicates are returned once, in the order first named. Race-safe:
 * when a concurrent caller claims a name first, its label is read and returned, so every caller
 * gets the one label of that name.
 *
 * Throws 400 `{"message":{"title":[...]}}` for an invalid name (blank, with a comma, too long),
 * 404 when the project is gone.
 *
 * @example
 * const labels = await ensureLabels(project, ['bug', 'Needs review']);
 * labels.map((l) => l.id); // existing ids, or those of the labels just created
 */
export async function ensureLabels(project: Project, names: string[]): Promise<Label[]> {
  const wanted = new Map<string, string>();
  for (const raw of names) {
    const name = raw.trim();
    const errors = titleErrorsOf(name);
    if (errors.length > 0) throw new ValidationError({ title: errors });
    if (!wanted.has(name.toLowerCase())) wanted.set(name.toLowerCase(), name);
  }
  return Promise.all([...wanted.values()].map((name) => ensureLabel(project.id, name)));
}

/** Internal: the label named `name`, read or created; a lost race re-reads the winner's label. */
async function ensureLabel(projectId: number, name: string): Promise<Label> {
  for (let attempt = 1; ; attempt++) {
    const existing = await findLabelByName(projectId, name);
    if (existing) return existing;
    const result = await insertLabel(projectId, { name, color: DEFAULT_LABEL_COLOR, description: null, priority: null });
    if (result === 'project_gone') throw new NotFoundError('Project');
    if (result !== 'name_taken') return result;
    // Someone claimed the name between our read and our write (or deleted it right after):
    // read again, a bounded number of times.
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError('Label was changed concurrently, try again');
  }
}
