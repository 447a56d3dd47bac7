/**
 * The projects feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/projects/store/keys.ts`, checked against every other feature's by
 * test/platform/key-spaces.test.ts): every key builder, index attribute and collection is called
 * with sample arguments. And its S3 objects (`store/objects.ts`) all live under their project's
 * prefix, the one a project deletion empties.
 */
import { describe, expect, it } from 'vitest';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import { keySpace, projectCollections, projectIndexKeys, projectKeys, topicCollections, topicIndexKeys, topicKeys } from '../../shared/projects/store/keys';
import { projectObjects } from '../../shared/projects/store/objects';
import { describeKeySpace } from '../support/key-space';

const SECRET = '0123456789abcdef0123456789abcdef';

/** Every table key builder with sample arguments (the `satisfies` makes a builder without a sample a compile error). */
const tableKeys = {
  project: () => projectKeys.project(7),
  star: () => projectKeys.star(7, 11),
  share: () => projectKeys.share(7, 3),
  upload: () => projectKeys.upload(7, SECRET),
  event: () => projectKeys.event(7, 42),
  contribution: () => projectKeys.contribution(7, 11),
  runnersToken: () => projectKeys.runnersToken('GR1348941abcdefghijklmnopqrst'),
} satisfies Record<Exclude<keyof typeof projectKeys, 'claims'>, () => Key>;

const claimKeys = {
  // A 252-character name whose characters take two bytes each in UTF-8.
  projectName: () => projectKeys.claims.projectName(3, 'проект'.repeat(42)),
} satisfies Record<keyof typeof projectKeys.claims, () => Key>;

const indexKeys = {
  projectList: () => projectIndexKeys.projectList(7),
  projectVisibility: () => projectIndexKeys.projectVisibility('internal', 7),
  namespaceProjects: () => projectIndexKeys.namespaceProjects(3, 7),
  projectFork: () => projectIndexKeys.projectFork(5, 7),
  userStar: () => projectIndexKeys.userStar(11, 7),
  projectStarrer: () => projectIndexKeys.projectStarrer(7, '2026-11-29T12:00:00.000Z', 11),
  userContribution: () => projectIndexKeys.userContribution(11, 7),
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
  projectStarrers: () => projectCollections.projectStarrers(7),
  projectStars: () => projectCollections.projectStars(7),
  userContributions: () => projectCollections.userContributions(11),
  projectForks: () => projectCollections.projectForks(5),
  groupShares: () => projectCollections.groupShares(3),
  projectShares: () => projectCollections.projectShares(7),
  projectPartition: () => projectCollections.projectPartition(7),
} satisfies Record<keyof typeof projectCollections, () => Collection>;

const objectKeys = {
  projectPrefix: () => projectObjects.projectPrefix(7),
  upload: () => projectObjects.upload(7, SECRET, 'screen_shot.png'),
} satisfies Record<keyof typeof projectObjects, () => string>;

/** Whether a table key lies in what a (table) collection reads. */
const inCollection = (key: Key, collection: Collection) =>
  !collection.index && key.PK === collection.partitionValue && key.SK.startsWith(collection.prefix ?? '');

/** Whether an item's index attributes put it in what an index collection reads. */
const inIndexCollection = (attributes: Record<string, string>, collection: Collection) =>
  collection.index !== undefined && attributes[collection.partitionAttribute] === collection.partitionValue && collection.sortAttribute in attributes;

describeKeySpace(
  {
    feature: 'projects',
    keySpace,
    keys: { name: 'projectKeys', builders: projectKeys, samples: tableKeys, claims: claimKeys },
    indexKeys: { name: 'projectIndexKeys', builders: projectIndexKeys, samples: indexKeys },
    collections: { name: 'projectCollections', builders: projectCollections, samples: collections, wholePartition: ['projectPartition'] },
    partitions: keySpace.partitions,
    outside: { PK: 'PROJECT#000000000007', SK: 'WIDGET#000000000001' },
  },
  () => {
    it('has a sample for every S3 object key builder', () => {
      expect(Object.keys(objectKeys).sort()).toEqual(Object.keys(projectObjects).sort());
    });

    it('keeps the name claim within DynamoDB key limits however long the name (a digest, not the name)', () => {
      // Act
      const key = claimKeys.projectName();

      // Assess
      expect(key.PK).toMatch(/^UNIQUE#PROJECT_NAME#3#[0-9a-f]{64}$/);
      expect(projectKeys.claims.projectName(3, 'App')).not.toEqual(projectKeys.claims.projectName(3, 'app'));
    });

    it('finds each item in the collection that reads it', () => {
      // Assess: table collections
      expect(inCollection(projectKeys.event(7, 42), projectCollections.projectEvents(7))).toBe(true);
      expect(inCollection(projectKeys.share(7, 3), projectCollections.projectShares(7))).toBe(true);
      expect(inCollection(projectKeys.star(7, 11), projectCollections.projectShares(7))).toBe(false);
      expect(inCollection(projectKeys.star(7, 11), projectCollections.projectStars(7))).toBe(true);
      expect(inCollection(projectKeys.contribution(7, 11), projectCollections.projectStars(7))).toBe(false);
      // Every item of a project is in its partition but the runners token's lookup, found by the token alone (deleted by name).
      const { runnersToken, ...partitionKeys } = tableKeys;
      for (const build of Object.values(partitionKeys)) expect(inCollection(build(), projectCollections.projectPartition(7))).toBe(true);
      expect(inCollection(runnersToken(), projectCollections.projectPartition(7))).toBe(false);
      expect(inCollection(projectKeys.project(70), projectCollections.projectPartition(7))).toBe(false);

      // Assess: index collections
      expect(inIndexCollection(projectIndexKeys.projectList(7), projectCollections.projects())).toBe(true);
      expect(inIndexCollection(projectIndexKeys.projectVisibility('internal', 7), projectCollections.projectsWithVisibility('internal'))).toBe(true);
      expect(inIndexCollection(projectIndexKeys.projectVisibility('public', 7), projectCollections.projectsWithVisibility('internal'))).toBe(false);
      expect(inIndexCollection(projectIndexKeys.namespaceProjects(3, 7), projectCollections.namespaceProjects(3))).toBe(true);
      expect(inIndexCollection(projectIndexKeys.userStar(11, 7), projectCollections.userStars(11))).toBe(true);
      expect(inIndexCollection(projectIndexKeys.groupShare(3, 7), projectCollections.groupShares(3))).toBe(true);
      expect(inIndexCollection(projectIndexKeys.userEvents(11, 42), projectCollections.userEvents(11))).toBe(true);
      expect(inIndexCollection(projectIndexKeys.projectStarrer(7, '2026-11-29T12:00:00.000Z', 11), projectCollections.projectStarrers(7))).toBe(true);
      expect(inIndexCollection(projectIndexKeys.userContribution(11, 7), projectCollections.userContributions(11))).toBe(true);
    });
  },
);

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

/** Topics: instance-wide items of the projects feature, their name claims and search entries. */
describeKeySpace({
  feature: 'projects (topics)',
  keySpace,
  keys: {
    name: 'topicKeys',
    builders: topicKeys,
    samples: {
      topic: () => topicKeys.topic(9),
      // A 252-character name whose characters take two bytes each in UTF-8.
      nameClaim: () => topicKeys.nameClaim('тема'.repeat(63)),
      searchEntry: () => topicKeys.searchEntry('cli', 9),
    } satisfies Record<keyof typeof topicKeys, () => Key>,
  },
  indexKeys: { name: 'topicIndexKeys', builders: topicIndexKeys, samples: { topicList: () => topicIndexKeys.topicList(9) } satisfies Record<keyof typeof topicIndexKeys, () => Record<string, string>> },
  collections: {
    name: 'topicCollections',
    builders: topicCollections,
    samples: { topics: () => topicCollections.topics(), searchEntries: () => topicCollections.searchEntries('cli') } satisfies Record<keyof typeof topicCollections, () => Collection>,
    wholePartition: ['searchEntries'],
  },
  partitions: ['TOPIC#', 'UNIQUE#TOPIC_NAME#', 'SEARCH_TOPICS#'],
  outside: { PK: 'TOPIC#9', SK: 'WIDGET#000000000001' },
});
