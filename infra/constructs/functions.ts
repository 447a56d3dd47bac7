import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { routeCatalog, type GroupName } from '../../shared/routes';
import { GroupFunction } from './group-function';

export interface GroupFunctionsProps {
  readonly table: dynamodb.ITable;
  readonly bucket: s3.IBucket;
  /** Public base URL of the service (no trailing slash). */
  readonly externalUrl: string;
  /** Key material of the secret box (hook tokens are stored sealed with it). */
  readonly secretBoxKey: secretsmanager.ISecret;
}

/**
 * One {@link GroupFunction} per handler group of the route catalog (`shared/routes.ts`).
 *
 * API handlers both read and write (creating users, keys, tokens, uploads), so each gets
 * read-write access to the table and the bucket, and the secret-box key to seal and open the
 * secrets stored in the table.
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
        const fn = new GroupFunction(this, constructId(group), {
          group,
          table: props.table,
          bucket: props.bucket,
          externalUrl: props.externalUrl,
        });
        fn.grantTable(props.table, 'readWrite');
        fn.grantBucket(props.bucket, 'readWrite');
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
