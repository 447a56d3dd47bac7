import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { GLOBAL_INDEXES, TABLE_KEY, TTL_ATTRIBUTE } from '../../shared/platform/dynamo/table-definition';

/**
 * The single DynamoDB table holding every entity.
 *
 * Keys, indexes and the TTL attribute come from `shared/platform/dynamo/table-definition.ts`, the same
 * definition the local runtime uses, so DynamoDB Local and AWS hold the same table. The table is
 * retained when the stack is deleted: it is the system of record.
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
