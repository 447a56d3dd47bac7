/**
 * The Terraform states feature's keys: every key and collection of its items is built here, and
 * only here; its S3 object keys too ({@link terraformStateObjects}). Its access patterns are listed
 * in ACCESS_PATTERNS.md beside this folder.
 *
 * A state is named by its project and name; its versions by the state's `uuid` (a random id drawn
 * when the state is created, GitLab's `terraform_states.uuid`), never by the name: a name may hold
 * any character (`#` included), and a state deleted and created again under the same name starts
 * with no versions, whatever of the old one is still being removed.
 */
import { pad, tableCollection, type Key, type KeySpace } from '../../platform/dynamo/keys';

/** Internal: a project's partition (owned by the projects feature, swept whole when the project is deleted). */
const projectPartition = (projectId: number) => `PROJECT#${projectId}`;

export const STATE_PREFIX = 'TFSTATE#';
export const VERSION_PREFIX = 'TFVERSION#';

/** Internal: where one state's versions start in its project's partition (the trailing `#` keeps one uuid's apart from a longer one's). */
const versionPrefix = (uuid: string) => `${VERSION_PREFIX}${uuid}#`;

export const terraformStateKeys = {
  /** A state in its project's partition, by name (GitLab's unique `(project_id, name)`). */
  state: (projectId: number, name: string): Key => ({ PK: projectPartition(projectId), SK: `${STATE_PREFIX}${name}` }),
  /** A version of a state, by serial (zero-padded: key order is serial order, the last the latest). */
  version: (projectId: number, uuid: string, serial: number): Key => ({ PK: projectPartition(projectId), SK: `${versionPrefix(uuid)}${pad(serial)}` }),
} as const;

/** The ranges of items one Query reads. */
export const terraformStateCollections = {
  /** A state's versions, by serial. */
  versions: (projectId: number, uuid: string) => tableCollection(projectPartition(projectId), versionPrefix(uuid)),
} as const;

/**
 * S3 keys of state versions: everything of a project's states under `terraform-states/<projectId>/`,
 * of one state under `terraform-states/<projectId>/<uuid>/`. Each version written is an object of
 * its own, named by its serial and a random token (never overwritten: two writers of one serial
 * never share an object, and the loser deletes its own).
 */
const projectObjectPrefix = (projectId: number): string => `terraform-states/${projectId}/`;
const stateObjectPrefix = (projectId: number, uuid: string): string => `${projectObjectPrefix(projectId)}${uuid}/`;

export const terraformStateObjects = {
  projectPrefix: projectObjectPrefix,
  statePrefix: stateObjectPrefix,
  /** One version's sealed content. */
  version: (projectId: number, uuid: string, serial: number, token: string): string => `${stateObjectPrefix(projectId, uuid)}${serial}-${token}`,
} as const;

/** The prefixes this feature's items occupy (checked against every other feature's by a test). */
export const keySpace: KeySpace = {
  partitions: [],
  sortKeys: { 'PROJECT#': [STATE_PREFIX, VERSION_PREFIX] },
  indexPartitions: {},
  sequences: [],
};
