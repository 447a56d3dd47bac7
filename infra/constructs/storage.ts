import { RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/**
 * The private bucket for blobs (uploads, repository files, archives).
 *
 * Never public: clients reach objects only through the API. TLS is enforced by bucket policy.
 * Versioning is off (the table records what each object is); the bucket is retained with the
 * table so that stack deletion does not orphan table items pointing at deleted objects.
 *
 * @example
 * const { bucket } = new ObjectStorage(this, 'Storage');
 */
export class ObjectStorage extends Construct {
  public readonly bucket: s3.Bucket;

  public constructor(scope: Construct, id: string) {
    super(scope, id);

    this.bucket = new s3.Bucket(this, 'Bucket', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      versioned: false,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
