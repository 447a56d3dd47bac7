/**
 * The projects feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/projects/store/keys.ts`, checked against every other feature's by
 * test/platform/key-spaces.test.ts): every key builder, index attribute and collection is called
 * with sample arguments. And its S3 objects (`store/objects.ts`) all live under their project's
 * prefix, the one a project deletion empties.
 */
import { describe, expect, it } from 'vitest';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import type { IndexName } from '../../shared/platform/dynamo/table-definition';
import { keySpace, projectCollections, projectIndexKeys, projectKeys } from '../../shared/projects/store/keys';
import { projectObjects } from '../../shared/projects/store/objects';

const SECRET = '0123456789abcdef0123456789abcdef';

/** Every table key builder with sample arguments (the `satisfies` makes a builder without a sample a compile error). */
const tableKeys = {
  project: () => projectKeys.project(7),
  star: () => projectKeys.star(7, 11),
  share: () => projectKeys.share(7, 3),
  upload: () => projectKeys.upload(7, SECRET),
  event: () => projectKeys.event(7, 42),
} satisfies Record<Exclude<keyof typeof projectKeys, 'claims'>, () => Key>;

const claimKeys = {
  // A 252-character name whose characters take two bytes each in UTF-8.
  projectName: () => projectKeys.claims.projectName(3, 'проект'.repeat(42)),
} satisfies Record<keyof typeof projectKeys.claims, () => Key>;

const indexKeys = {
  projectList: () => projectIndexKeys.projectList(7),
  projectVisibility: () => projectIndexKeys.projectVisibility('internal', 7),
  namespaceProjects: () => projectIndexKeys.namespaceProjects(3, 7),
  userStar: () => projectIndexKeys.userStar(11, 7),
  groupShare: () => projectIndexKeys.groupShare(3, 7),
  userEvents: () => projectIndexKeys.userEvents(11, 42),
} satisfies Record<keyof typeof projectIndexKeys, () => Record<string, string>>;

const collections = {
  userEvents: () => projectCollections.userEvents(11),
  projectEvents: () => projectCollections.projectEvents(7),
  projects: () => projectCollections.projects(),
  projectsWithVisibility: () => projectCollections.projectsWithVisibility('internal'),
  namespaceProjects: () => projectCollections.namespaceProjects(3),
  userStars: () => projectCollections.userStars(11),
  groupShares: () => projectCollections.groupShares(3),
  projectShares: () => projectCollections.projectShares(7),
  projectPartition: () => projectCollections.projectPartition(7),
} satisfies Record<keyof typeof projectCollections, () => Collection>;

const objectKeys = {
  projectPrefix: () => projectObjects.projectPrefix(7),
  upload: () => projectObjects.upload(7, SECRET, 'screen_shot.png'),
} satisfies Record<keyof typeof projectObjects, () => string>;

const startsWithAny = (value: string, prefixes: readonly string[]) => prefixes.some((prefix) => value.startsWith(prefix));

/** The longest partition prefix the feature declares that `pk` starts with. */
const partitionOf = (pk: string): string | undefined =>
  keySpace.partitions.filter((prefix) => pk.startsWith(prefix)).sort((a, b) => b.length - a.length)[0];

/** Whether a table key lies in what a (table) collection reads. */
const inCollection = (key: Key, collection: Collection) =>
  !collection.index && key.PK === collection.partitionValue && key.SK.startsWith(collection.prefix ?? '');

/** Whether an item's index attributes put it in what an index collection reads. */
const inIndexCollection = (attributes: Record<string, string>, collection: Collection) =>
  collection.index !== undefined && attributes[collection.partitionAttribute] === collection.partitionValue && collection.sortAttribute in attributes;

const allTableKeys = { ...tableKeys, ...Object.fromEntries(Object.entries(claimKeys).map(([name, build]) => [`claims.${name}`, build])) };

describe('projects key builders stay in the declared key space', () => {
  it('has a sample for every builder', () => {
    // Prepare
    const names = (builders: object) => Object.keys(builders).sort();

    // Assess
    expect(names(tableKeys)).toEqual(names(projectKeys).filter((name) => name !== 'claims'));
    expect(names(claimKeys)).toEqual(names(projectKeys.claims));
    expect(names(indexKeys)).toEqual(names(projectIndexKeys));
    expect(names(collections)).toEqual(names(projectCollections));
    expect(names(objectKeys)).toEqual(names(projectObjects));
  });

  it.each(Object.entries(allTableKeys))('projectKeys.%s: PK under a declared partition, SK under its declared sort-key prefixes', (_name, build) => {
    // Act
    const key = build();
    const partition = partitionOf(key.PK);

    // Assess
    expect(partition, `PK ${key.PK}`).toBeDefined();
    const sortKeys = keySpace.sortKeys[partition ?? ''] ?? [];
    expect(sortKeys, `sort keys declared under ${partition}`).not.toEqual([]);
    expect(startsWithAny(key.SK, sortKeys), `SK ${key.SK} under ${partition}`).toBe(true);
  });

  it('keeps the name claim within DynamoDB key limits however long the name (a digest, not the name)', () => {
    // Act
    const key = claimKeys.projectName();

    // Assess
    expect(key.PK).toMatch(/^UNIQUE#PROJECT_NAME#3#[0-9a-f]{64}$/);
    expect(projectKeys.claims.projectName(3, 'App')).not.toEqual(projectKeys.claims.projectName(3, 'app'));
  });

  it.each(Object.entries(indexKeys))('projectIndexKeys.%s: every index partition among the declared indexPartitions', (_name, build) => {
    // Act
    const attributes: Record<string, string> = build();
    const partitions = Object.entries(attributes).filter(([name]) => /^GSI\dPK$/.test(name));

    // Assess
    expect(partitions).not.toEqual([]);
    for (const [name, value] of partitions) {
      const index = name.slice(0, -2) as IndexName;
      expect(attributes[`${index}SK`], `${index}SK beside ${name}`).toEqual(expect.any(String));
      expect(startsWithAny(value, keySpace.indexPartitions[index] ?? []), `${name} ${value}`).toBe(true);
    }
  });

  it.each(Object.entries(collections))('projectCollections.%s: reads a declared partition (and sort-key prefix)', (_name, build) => {
    // Act
    const collection = build();

    // Assess
    if (collection.index) {
      expect(collection.partitionAttribute).toBe(`${collection.index}PK`);
      expect(collection.sortAttribute).toBe(`${collection.index}SK`);
      expect(startsWithAny(collection.partitionValue, keySpace.indexPartitions[collection.index] ?? []), collection.partitionValue).toBe(true);
      return;
    }
    const partition = partitionOf(collection.partitionValue);
    expect(partition, `PK ${collection.partitionValue}`).toBeDefined();
    // An empty prefix reads the whole partition (deleting a project); any other is a declared sort-key prefix.
    if (collection.prefix) expect(startsWithAny(collection.prefix, keySpace.sortKeys[partition ?? ''] ?? []), collection.prefix).toBe(true);
  });

  it('finds each item in the collection that reads it', () => {
    // Assess: table collections
    expect(inCollection(projectKeys.event(7, 42), projectCollections.projectEvents(7))).toBe(true);
    expect(inCollection(projectKeys.share(7, 3), projectCollections.projectShares(7))).toBe(true);
    expect(inCollection(projectKeys.star(7, 11), projectCollections.projectShares(7))).toBe(false);
    for (const build of Object.values(tableKeys)) expect(inCollection(build(), projectCollections.projectPartition(7))).toBe(true);
    expect(inCollection(projectKeys.project(70), projectCollections.projectPartition(7))).toBe(false);

    // Assess: index collections
    expect(inIndexCollection(projectIndexKeys.projectList(7), projectCollections.projects())).toBe(true);
    expect(inIndexCollection(projectIndexKeys.projectVisibility('internal', 7), projectCollections.projectsWithVisibility('internal'))).toBe(true);
    expect(inIndexCollection(projectIndexKeys.projectVisibility('public', 7), projectCollections.projectsWithVisibility('internal'))).toBe(false);
    expect(inIndexCollection(projectIndexKeys.namespaceProjects(3, 7), projectCollections.namespaceProjects(3))).toBe(true);
    expect(inIndexCollection(projectIndexKeys.userStar(11, 7), projectCollections.userStars(11))).toBe(true);
    expect(inIndexCollection(projectIndexKeys.groupShare(3, 7), projectCollections.groupShares(3))).toBe(true);
    expect(inIndexCollection(projectIndexKeys.userEvents(11, 42), projectCollections.userEvents(11))).toBe(true);
  });

  it('finds a key outside the declared space (the check itself can fail)', () => {
    expect(partitionOf('NOBODY#1')).toBeUndefined();
    expect(startsWithAny('WIDGET#000000000001', keySpace.sortKeys['PROJECT#'])).toBe(false);
  });
});

describe('projects S3 object keys', () => {
  it.each(Object.entries(objectKeys))('projectObjects.%s: under the project prefix, projects/<id>/', (_name, build) => {
    // Act
    const key = build();

    // Assess
    expect(key.startsWith(projectObjects.projectPrefix(7)), key).toBe(true);
    expect(key.startsWith('projects/7/')).toBe(true);
  });

  it("never puts a project's object under another project's prefix (projects/7/ is not a prefix of projects/70/)", () => {
    // Act
    const ofProject70 = projectObjects.upload(70, SECRET, 'a.png');

    // Assess
    expect(ofProject70.startsWith(projectObjects.projectPrefix(7))).toBe(false);
    expect(ofProject70.startsWith(projectObjects.projectPrefix(70))).toBe(true);
  });

  it('lays an upload out as projects/<projectId>/uploads/<secret>/<filename>', () => {
    expect(projectObjects.upload(7, SECRET, 'screen_shot.png')).toBe(`projects/7/uploads/${SECRET}/screen_shot.png`);
  });
});
