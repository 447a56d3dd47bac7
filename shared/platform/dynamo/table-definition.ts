/**
 * The single table's physical shape: key attributes, global secondary indexes and TTL.
 *
 * Used by the CDK data construct and by the local runtime's bootstrap, so the table created on
 * DynamoDB Local is the table deployed to AWS. What lives in each index is in ACCESS_PATTERNS.md.
 */
export const TABLE_KEY = { partitionKey: 'PK', sortKey: 'SK' } as const;

export const GLOBAL_INDEXES = [
  { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
  { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
  { indexName: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK' },
  { indexName: 'GSI4', partitionKey: 'GSI4PK', sortKey: 'GSI4SK' },
  { indexName: 'GSI5', partitionKey: 'GSI5PK', sortKey: 'GSI5SK' },
  { indexName: 'GSI6', partitionKey: 'GSI6PK', sortKey: 'GSI6SK' },
  { indexName: 'GSI7', partitionKey: 'GSI7PK', sortKey: 'GSI7SK' },
  { indexName: 'GSI8', partitionKey: 'GSI8PK', sortKey: 'GSI8SK' },
] as const;

export type IndexName = (typeof GLOBAL_INDEXES)[number]['indexName'];

/** Items with this attribute (epoch seconds) are removed by DynamoDB's TTL sweeper. */
export const TTL_ATTRIBUTE = 'expiresAtEpoch';
