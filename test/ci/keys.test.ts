/**
 * The CI feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/ci/store/keys.ts`) and collide with no other feature's prefixes: every key builder,
 * index attribute and collection is called with sample arguments.
 */
import { expect, it } from 'vitest';
import { ciCollections, ciIndexKeys, ciKeys, CI_SCHEDULE_SHARDS, keySpace } from '../../shared/ci/store/keys';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import { describeKeySpace } from '../support/key-space';

const DIGEST = 'a'.repeat(64);
const AT = '2026-03-04T05:06:07.089Z';
const PROJECT = { kind: 'project', id: 5 } as const;
const GROUP = { kind: 'group', id: 5 } as const;
const INSTANCE = { kind: 'instance', id: 0 } as const;

const tableKeys = {
  pipeline: [() => ciKeys.pipeline(12)],
  statusClaim: [() => ciKeys.statusClaim(12, 3, 'main', 'default')],
  externalPipelineClaim: [() => ciKeys.externalPipelineClaim(5, 'a'.repeat(40), 'main')],
  job: [() => ciKeys.job(12, 345)],
  jobPointer: [() => ciKeys.jobPointer(345)],
  jobToken: [() => ciKeys.jobToken(DIGEST)],
  runner: [() => ciKeys.runner(DIGEST)],
  runnerPointer: [() => ciKeys.runnerPointer(7)],
  runnerProject: [() => ciKeys.runnerProject(7, 5)],
  runnerInstance: [() => ciKeys.runnerInstance(7)],
  runnerGroup: [() => ciKeys.runnerGroup(7, 3)],
  instanceQueueVersion: [() => ciKeys.instanceQueueVersion()],
  groupQueueVersion: [() => ciKeys.groupQueueVersion(3)],
  runnerJob: [() => ciKeys.runnerJob(7, 345)],
  queueVersion: [() => ciKeys.queueVersion(5)],
  variable: [() => ciKeys.variable(PROJECT, 'DEPLOY_TOKEN', '*'), () => ciKeys.variable(PROJECT, 'DEPLOY_TOKEN', 'review/*'), () => ciKeys.variable(GROUP, 'DEPLOY_TOKEN', '*'), () => ciKeys.variable(INSTANCE, 'DEPLOY_TOKEN', '*')],
  variableCount: [() => ciKeys.variableCount(PROJECT), () => ciKeys.variableCount(GROUP)],
  trigger: [() => ciKeys.trigger(5, 9)],
  triggerToken: [() => ciKeys.triggerToken(DIGEST)],
  jobTokenScope: [() => ciKeys.jobTokenScope(5)],
  jobTokenAllowlistEntry: [() => ciKeys.jobTokenAllowlistEntry(5, { kind: 'project', id: 9 }), () => ciKeys.jobTokenAllowlistEntry(5, { kind: 'group', id: 3 })],
  environment: [() => ciKeys.environment(5, 8)],
  environmentName: [() => ciKeys.environmentName(5, 'review/feature #1')],
  deployment: [() => ciKeys.deployment(5, 21)],
  deploymentRef: [() => ciKeys.deploymentRef(5, 'feature/#1', 21)],
  schedule: [() => ciKeys.schedule(5, 9)],
  schedulePipeline: [() => ciKeys.schedulePipeline(9, 12)],
  ref: [() => ciKeys.ref(5, 'main'), () => ciKeys.ref(5, 'refs/merge-requests/1/head')],
} satisfies Record<keyof typeof ciKeys, Array<() => Key>>;

const indexKeys = {
  projectPipeline: [() => ciIndexKeys.projectPipeline(5, 12)],
  projectJob: [() => ciIndexKeys.projectJob(5, 345)],
  projectJobByStatus: [() => ciIndexKeys.projectJobByStatus(5, 'failed', 345)],
  projectPipelineByStatus: [() => ciIndexKeys.projectPipelineByStatus(5, 'success', 12)],
  projectPipelineByRef: [() => ciIndexKeys.projectPipelineByRef(5, 'main', 12), () => ciIndexKeys.projectPipelineByRef(5, 'feature/#1', 12)],
  projectPipelineByMergeRequestRef: [() => ciIndexKeys.projectPipelineByMergeRequestRef(5, 'refs/merge-requests/1/head', 12)],
  projectRunner: [() => ciIndexKeys.projectRunner(5, 7)],
  anyRunner: [() => ciIndexKeys.anyRunner(7)],
  queuedJob: [() => ciIndexKeys.queuedJob(5, 345)],
  sharedQueuedJob: [() => ciIndexKeys.sharedQueuedJob(345)],
  groupQueuedJob: [() => ciIndexKeys.groupQueuedJob([3], 345), () => ciIndexKeys.groupQueuedJob([3, 30, 31], 345)],
  instanceRunner: [() => ciIndexKeys.instanceRunner(7)],
  groupRunner: [() => ciIndexKeys.groupRunner(3, 7)],
  jobDeadline: [() => ciIndexKeys.jobDeadline(345, AT)],
  artifactExpiry: [() => ciIndexKeys.artifactExpiry(345, AT)],
  environmentByState: [() => ciIndexKeys.environmentByState(5, 'available', 8)],
  environmentByName: [() => ciIndexKeys.environmentByName(5, 'Review/X', 8)],
  environmentDue: [() => ciIndexKeys.environmentDue(8, AT)],
  deployment: [
    () => ciIndexKeys.deployment({ projectId: 5, environmentId: 8, id: 21, status: 'running', updatedAt: AT, finishedAt: null }),
    () => ciIndexKeys.deployment({ projectId: 5, environmentId: 8, id: 21, status: 'success', updatedAt: AT, finishedAt: AT }),
  ],
  scheduleNextRun: [() => ciIndexKeys.scheduleNextRun(9, AT)],
  projectPipelineBySha: [() => ciIndexKeys.projectPipelineBySha(5, 'a'.repeat(40), 12)],
} satisfies Record<keyof typeof ciIndexKeys, Array<() => Record<string, string>>>;

const collections = {
  pipelinePartition: [() => ciCollections.pipelinePartition(12)],
  pipelineJobs: [() => ciCollections.pipelineJobs(12)],
  projectPipelines: [() => ciCollections.projectPipelines(5)],
  projectJobs: [() => ciCollections.projectJobs(5)],
  projectJobsByStatus: [() => ciCollections.projectJobsByStatus(5, 'failed')],
  projectPipelinesBySha: [() => ciCollections.projectPipelinesBySha(5, 'a'.repeat(40))],
  projectPipelinesByStatus: [() => ciCollections.projectPipelinesByStatus(5, 'success')],
  projectPipelinesByRef: [() => ciCollections.projectPipelinesByRef(5, 'main')],
  projectMergeRequestPipelines: [() => ciCollections.projectMergeRequestPipelines(5, 'refs/merge-requests/1/head')],
  projectRunners: [() => ciCollections.projectRunners(5)],
  allRunners: [() => ciCollections.allRunners()],
  runnerPartition: [() => ciCollections.runnerPartition(7)],
  runnerProjects: [() => ciCollections.runnerProjects(7)],
  runnerJobs: [() => ciCollections.runnerJobs(7)],
  queue: [() => ciCollections.queue(5)],
  sharedQueue: [() => ciCollections.sharedQueue(1)],
  groupQueue: [() => ciCollections.groupQueue([3]), () => ciCollections.groupQueue([3, 30])],
  instanceRunners: [() => ciCollections.instanceRunners()],
  groupRunners: [() => ciCollections.groupRunners(3)],
  dueDeadlines: [() => ciCollections.dueDeadlines(1, AT)],
  expiredArtifacts: [() => ciCollections.expiredArtifacts(1, AT)],
  variables: [() => ciCollections.variables(PROJECT), () => ciCollections.variables(GROUP)],
  variablesOfKey: [() => ciCollections.variablesOfKey(PROJECT, 'DEPLOY_TOKEN'), () => ciCollections.variablesOfKey(GROUP, 'DEPLOY_TOKEN')],
  variablesPartition: [() => ciCollections.variablesPartition(PROJECT), () => ciCollections.variablesPartition(GROUP)],
  triggers: [() => ciCollections.triggers(5)],
  jobTokenAllowlist: [() => ciCollections.jobTokenAllowlist(5, 'project'), () => ciCollections.jobTokenAllowlist(5, 'group')],
  environments: [() => ciCollections.environments(5)],
  environmentsPartition: [() => ciCollections.environmentsPartition(5)],
  environmentsByState: [() => ciCollections.environmentsByState(5, 'stopped')],
  environmentsByNamePrefix: [() => ciCollections.environmentsByNamePrefix(5, 'Rev')],
  dueEnvironments: [() => ciCollections.dueEnvironments(1, AT)],
  deployments: [() => ciCollections.deployments(5)],
  deploymentsByRef: [() => ciCollections.deploymentsByRef(5)],
  deploymentsPartition: [() => ciCollections.deploymentsPartition(5)],
  environmentDeployments: [() => ciCollections.environmentDeployments(8)],
  deploymentsByStatus: [() => ciCollections.deploymentsByStatus(5, 'success')],
  environmentDeploymentsByStatus: [() => ciCollections.environmentDeploymentsByStatus(8, 'success')],
  deploymentsByUpdate: [() => ciCollections.deploymentsByUpdate(5), () => ciCollections.deploymentsByUpdate(5, { from: AT, below: AT })],
  deploymentsByFinish: [() => ciCollections.deploymentsByFinish(5), () => ciCollections.deploymentsByFinish(5, { from: AT })],
  schedules: [() => ciCollections.schedules(5)],
  schedulePipelines: [() => ciCollections.schedulePipelines(9)],
  refs: [() => ciCollections.refs(5)],
  dueSchedules: [() => ciCollections.dueSchedules(1, AT)],
} satisfies Record<keyof typeof ciCollections, Array<() => Collection>>;

describeKeySpace(
  {
    feature: 'ci',
    keySpace,
    keys: { name: 'ciKeys', builders: ciKeys, samples: tableKeys },
    indexKeys: { name: 'ciIndexKeys', builders: ciIndexKeys, samples: indexKeys },
    collections: { name: 'ciCollections', builders: ciCollections, samples: collections, wholePartition: ['pipelinePartition', 'runnerPartition', 'variablesPartition', 'environmentsPartition', 'deploymentsPartition'] },
    outside: { PK: 'CI_PIPELINE#12', SK: 'STAGE#1' },
  },
  () => {
    it('puts a subgroup’s pending jobs in its group’s queue range, and none of a group whose id starts alike', () => {
      const range = ciCollections.groupQueue([3, 30]);
      expect(ciIndexKeys.groupQueuedJob([3, 30], 9).GSI7SK.startsWith(range.prefix!)).toBe(true);
      expect(ciIndexKeys.groupQueuedJob([3, 30, 31], 9).GSI7SK.startsWith(range.prefix!)).toBe(true);
      expect(ciIndexKeys.groupQueuedJob([3, 300], 9).GSI7SK.startsWith(range.prefix!)).toBe(false);
    });

    it('keeps a pipeline’s jobs out of another pipeline whose id starts alike', () => {
      expect(ciKeys.job(120, 1).PK).not.toBe(ciCollections.pipelineJobs(12).partitionValue);
      expect(ciKeys.job(12, 1).SK.startsWith(ciCollections.pipelineJobs(12).prefix!)).toBe(true);
      expect(ciKeys.pipeline(12).SK.startsWith(ciCollections.pipelineJobs(12).prefix!)).toBe(false);
    });

    it('lists a job, and a pipeline, in the partition its status (and ref) is read from, and no other project’s', () => {
      expect(ciIndexKeys.projectJobByStatus(5, 'failed', 345).GSI5PK).toBe(ciCollections.projectJobsByStatus(5, 'failed').partitionValue);
      expect(ciIndexKeys.projectJobByStatus(5, 'failed', 345).GSI5PK).not.toBe(ciCollections.projectJobsByStatus(5, 'success').partitionValue);
      expect(ciIndexKeys.projectPipelineByStatus(5, 'success', 12).GSI2PK).toBe(ciCollections.projectPipelinesByStatus(5, 'success').partitionValue);
      expect(ciIndexKeys.projectPipelineByRef(5, 'main', 12).GSI3PK).toBe(ciCollections.projectPipelinesByRef(5, 'main').partitionValue);
      // A ref starting with digits cannot reach another project's partition: the project id ends at the first `#`.
      expect(ciCollections.projectPipelinesByRef(51, 'main').partitionValue).not.toBe(ciCollections.projectPipelinesByRef(5, '1#main').partitionValue);
    });

    it('lists an owner’s variables by key then scope, a key’s scopes without those of a longer key, and the count apart', () => {
      const sks = [ciKeys.variable(PROJECT, 'A_B', '*'), ciKeys.variable(PROJECT, 'A', 'review/*'), ciKeys.variable(PROJECT, 'AB', '*'), ciKeys.variable(PROJECT, 'A', '*')].map((key) => key.SK).sort();
      expect(sks).toEqual(['VARIABLE#A#*', 'VARIABLE#A#review/*', 'VARIABLE#AB#*', 'VARIABLE#A_B#*']);
      const ofA = ciCollections.variablesOfKey(PROJECT, 'A');
      expect(ciKeys.variable(PROJECT, 'A', 'production').SK.startsWith(ofA.prefix!)).toBe(true);
      expect(ciKeys.variable(PROJECT, 'AB', '*').SK.startsWith(ofA.prefix!)).toBe(false);
      expect(ciKeys.variableCount(PROJECT).SK.startsWith(ciCollections.variables(PROJECT).prefix!)).toBe(false);
      expect(ciKeys.variable({ kind: 'project', id: 51 }, 'A', '*').PK).not.toBe(ciCollections.variables(PROJECT).partitionValue);
    });

    it('keeps a group’s variables apart from those of the project of the same id', () => {
      expect(ciKeys.variable(GROUP, 'A', '*').PK).toBe(ciCollections.variables(GROUP).partitionValue);
      expect(ciKeys.variable(GROUP, 'A', '*').PK).not.toBe(ciCollections.variables(PROJECT).partitionValue);
      expect(ciKeys.variableCount(GROUP).PK).not.toBe(ciKeys.variableCount(PROJECT).PK);
    });

    it('finds a deadline in its shard once it is due, and not before', () => {
      const entry = ciIndexKeys.jobDeadline(345, AT);
      const due = ciCollections.dueDeadlines(345 % CI_SCHEDULE_SHARDS, AT);
      expect(entry.GSI3PK).toBe(due.partitionValue);
      expect(entry.GSI3SK < due.below!).toBe(true);
      const aMillisecondEarlier = ciCollections.dueDeadlines(345 % CI_SCHEDULE_SHARDS, '2026-03-04T05:06:07.088Z');
      expect(entry.GSI3SK < aMillisecondEarlier.below!).toBe(false);
    });
  },
);
