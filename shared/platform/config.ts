/**
 * Runtime configuration, read once from the environment.
 *
 * The same variables are set by the CDK stack on Lambda and by the local runtime, so handler code
 * never branches on where it runs. AWS endpoints are not configured here: the AWS SDK itself honours
 * `AWS_ENDPOINT_URL`, `AWS_ENDPOINT_URL_DYNAMODB` and `AWS_ENDPOINT_URL_S3` (LocalStack, emulators).
 */
export interface Config {
  tableName: string;
  bucketName: string;
  /** Public base URL of the service, e.g. `https://git.example.com` (no trailing slash). */
  externalUrl: string;
  /** Path-style S3 addressing, needed by s3rver and LocalStack. */
  s3ForcePathStyle: boolean;
  version: string;
  revision: string;
}

let cached: Config | undefined;

export function config(): Config {
  cached ??= {
    tableName: process.env.TABLE_NAME ?? 'project-hosting',
    bucketName: process.env.BUCKET_NAME ?? 'project-hosting',
    externalUrl: (process.env.EXTERNAL_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    s3ForcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true',
    version: process.env.APP_VERSION ?? '9.1.0-serverless',
    revision: process.env.APP_REVISION ?? 'unknown',
  };
  return cached;
}

/** Test hook: forget the cached configuration after changing the environment. */
export function resetConfig(): void {
  cached = undefined;
}
