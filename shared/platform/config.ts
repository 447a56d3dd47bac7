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
  /** `LOG_LEVEL`: the least severe level written (`debug`, `info`, `warn`, `error`); `info` otherwise. */
  logLevel: LogLevel;
  /** `SERVICE_NAME` (or the stack's `POWERTOOLS_SERVICE_NAME`): the `service` of every log line. */
  serviceName: string;
  /** `MAX_BODY_BYTES`: the largest request body accepted (413 above); API Gateway's own limit is 10 MB. */
  maxBodyBytes: number;
}

/** Log levels, least severe first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

let cached: Config | undefined;

export function config(): Config {
  cached ??= {
    tableName: process.env.TABLE_NAME ?? 'project-hosting',
    bucketName: process.env.BUCKET_NAME ?? 'project-hosting',
    externalUrl: (process.env.EXTERNAL_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    s3ForcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true',
    version: process.env.APP_VERSION ?? '9.1.0-serverless',
    revision: process.env.APP_REVISION ?? 'unknown',
    logLevel: (['debug', 'info', 'warn', 'error'] as const).find((level) => level === process.env.LOG_LEVEL?.toLowerCase()) ?? 'info',
    serviceName: process.env.SERVICE_NAME || process.env.POWERTOOLS_SERVICE_NAME || 'project-hosting',
    maxBodyBytes: Number(process.env.MAX_BODY_BYTES) > 0 ? Number(process.env.MAX_BODY_BYTES) : 10 * 1024 * 1024,
  };
  return cached;
}

/** Test hook: forget the cached configuration after changing the environment. */
export function resetConfig(): void {
  cached = undefined;
}
