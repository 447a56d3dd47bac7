import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY } from 'aws-cdk-lib/cx-api';
import { Construct } from 'constructs';
import { acknowledge } from '../nag';

/** How long an overwritten or deleted object stays recoverable, when not told. */
export const DEFAULT_NONCURRENT_VERSION_DAYS = 30;
/** How long the bucket's server access logs are kept. */
export const ACCESS_LOG_DAYS = 365;

export interface ObjectStorageProps {
  /**
   * Days an overwritten or deleted object stays recoverable as a noncurrent version.
   * @default {@link DEFAULT_NONCURRENT_VERSION_DAYS}
   */
  readonly noncurrentVersionDays?: number;
}

/**
 * The private bucket for blobs (uploads, repository packs, CI traces and artifacts).
 *
 * Never public: clients reach objects only through the API. TLS is enforced by bucket policy.
 * Versioned, so that an object overwritten or deleted by mistake (a bug, a bad deployment) can be
 * restored: noncurrent versions expire after {@link ObjectStorageProps.noncurrentVersionDays}
 * days, and unfinished multipart uploads after a week, so versioning costs a bounded amount. The
 * bucket is retained with the table so that stack deletion does not orphan table items pointing
 * at deleted objects.
 *
 * Server access logs go to a second private bucket, kept {@link ACCESS_LOG_DAYS} days (an audit
 * trail of every object read and write, including the functions').
 *
 * @example
 * const { bucket } = new ObjectStorage(this, 'Storage');
 */
export class ObjectStorage extends Construct {
  public readonly bucket: s3.Bucket;
  /** Where the bucket's server access logs are delivered. */
  public readonly accessLogsBucket: s3.Bucket;

  public constructor(scope: Construct, id: string, props: ObjectStorageProps = {}) {
    super(scope, id);
    // Log delivery is granted by the logs bucket's policy, never by an ACL (ACLs are disabled on
    // both buckets), whatever the app's feature flags: CDK reads the flag from here up.
    this.node.setContext(S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, true);

    this.accessLogsBucket = new s3.Bucket(this, 'AccessLogs', {
      // Server access logs can only be delivered to SSE-S3 buckets.
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      lifecycleRules: [{ id: 'ExpireAccessLogs', expiration: Duration.days(ACCESS_LOG_DAYS) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(this.accessLogsBucket, {
      'AwsSolutions-S1': 'This bucket is the target of the data bucket\'s server access logs; logging its own accesses would log the log deliveries.',
    });

    this.bucket = new s3.Bucket(this, 'Bucket', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      versioned: true,
      lifecycleRules: [
        {
          id: 'ExpireNoncurrentVersions',
          noncurrentVersionExpiration: Duration.days(props.noncurrentVersionDays ?? DEFAULT_NONCURRENT_VERSION_DAYS),
          abortIncompleteMultipartUploadAfter: Duration.days(7),
          // A delete marker left alone once its noncurrent versions have expired.
          expiredObjectDeleteMarker: true,
        },
      ],
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'data-bucket/',
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
