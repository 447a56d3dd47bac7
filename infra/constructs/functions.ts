import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Duration, Size } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { routeCatalog, type GroupName } from '../../shared/catalog';
import { GroupFunction, type DataAccess, type GroupFunctionProps } from './group-function';

/**
 * What each group does with the bucket, and so what it is granted (a new group must be listed:
 * the type requires every group). Uploads write files; deleting projects (directly, or as part of
 * a group or a user) removes theirs; web routes serve them and git pushes store packs; the rest
 * never touch the bucket.
 */
const BUCKET_ACCESS: Record<GroupName, DataAccess | 'none'> = {
  meta: 'none',
  users: 'readWrite',
  groups: 'readWrite',
  members: 'none',
  projects: 'readWrite',
  hooks: 'none',
  uploads: 'readWrite',
  repository: 'readWrite',
  web: 'readWrite',
  labels: 'none',
  milestones: 'none',
  issues: 'none',
  todos: 'none',
  // Merge requests read the repositories' packs and write merge commits and large diff versions.
  merge_requests: 'readWrite',
  // CI reads repositories (.gitlab-ci.yml) and keeps traces and artifacts in the bucket.
  ci_jobs: 'readWrite',
  ci_runners: 'readWrite',
};

/**
 * Groups that need more than the defaults. `web` serves git's smart HTTP: packs are held in
 * memory and cached in `/tmp`, CPU (which grows with memory) bounds pack indexing and delta
 * resolution, and its responses stream for up to 15 minutes (API Gateway's idle timeout for a
 * stream is 5 minutes). `repository` builds commits and reads trees from the same packs.
 */
const SIZING: Partial<Record<GroupName, Pick<GroupFunctionProps, 'memorySize' | 'timeout' | 'ephemeralStorageSize'>>> = {
  web: { memorySize: 2048, timeout: Duration.minutes(10), ephemeralStorageSize: Size.gibibytes(2) },
  repository: { memorySize: 1024, ephemeralStorageSize: Size.gibibytes(1) },
};

export interface GroupFunctionsProps {
  readonly table: dynamodb.ITable;
  readonly bucket: s3.IBucket;
  /** Public base URL of the service (no trailing slash). */
  readonly externalUrl: string;
  /** Key material of the secret box (hook tokens are stored sealed with it). */
  readonly secretBoxKey: secretsmanager.ISecret;
}

/**
 * One {@link GroupFunction} per handler group of the route catalog (`shared/catalog.ts`).
 *
 * Every API handler writes the table (authentication records the caller's daily activity), so
 * each gets read-write access to it, and the secret-box key to seal and open the secrets stored
 * in it. The bucket is granted per group ({@link BUCKET_ACCESS}), and only named to groups that
 * use it.
 *
 * @example
 * const { byGroup } = new GroupFunctions(this, 'Functions', { table, bucket, externalUrl, secretBoxKey });
 * byGroup.users; // the function serving `/api/v4/users...`
 */
export class GroupFunctions extends Construct {
  public readonly byGroup: Readonly<Record<GroupName, GroupFunction>>;

  public constructor(scope: Construct, id: string, props: GroupFunctionsProps) {
    super(scope, id);

    const groups = Object.keys(routeCatalog) as GroupName[];
    this.byGroup = Object.fromEntries(
      groups.map((group) => {
        const bucketAccess = BUCKET_ACCESS[group];
        const fn = new GroupFunction(this, constructId(group), {
          group,
          table: props.table,
          bucket: bucketAccess === 'none' ? undefined : props.bucket,
          externalUrl: props.externalUrl,
          ...SIZING[group],
        });
        fn.grantTable(props.table, 'readWrite');
        if (bucketAccess !== 'none') fn.grantBucket(props.bucket, bucketAccess);
        fn.useSecretBoxKey(props.secretBoxKey);
        return [group, fn];
      }),
    ) as Record<GroupName, GroupFunction>;
  }
}

/** Internal: `merge_requests` → `MergeRequests`, for readable logical IDs. */
function constructId(group: string): string {
  return group
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}
