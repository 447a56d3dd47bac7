import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { GLOBAL_INDEXES, TABLE_KEY, TTL_ATTRIBUTE } from '../../shared/platform/dynamo/table-definition';

/**
 * The single DynamoDB table holding every entity.
 *
 * Keys, indexes and the TTL attribute come from `shared/platform/dynamo/table-definition.ts`, the same
 * definition the local runtime uses, so DynamoDB Local and AWS hold the same table. It is the
 * system of record, so nothing may lose it: deletion protection is on (neither a stack update nor
 * a console click deletes it until an operator turns it off), the stack retains it when deleted or
 * when a change would replace it, and point-in-time recovery keeps 35 days of restorable history.
 *
 * @example
 * const { table } = new DataTable(this, 'Data');
 */
export class DataTable extends Construct {
  public readonly table: dynamodb.Table;

  public constructor(scope: Construct, id: string) {
    super(scope, id);

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE_KEY.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_KEY.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      stream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    for (const index of GLOBAL_INDEXES) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
  }
}
