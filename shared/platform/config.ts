import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
  /** `SSH_HOST`: the host of `ssh_url_to_repo`; the host of `externalUrl` otherwise. */
  sshHost: string;
  /** `MAX_UPLOAD_BYTES`: the largest uploaded file (413 above); 4 MiB, under Lambda's 6 MB payload once base64-encoded. */
  maxUploadBytes: number;
  /**
   * `MAX_PACKAGE_FILE_BYTES`: the largest generic package file (413 above); 4 MiB, so the request
   * and the download (both base64-encoded) fit Lambda's 6 MB payloads. GitLab's default is 5 GB.
   */
  maxPackageFileBytes: number;
  /** `PACKAGE_SORT_LIMIT`: most packages a filtered package list (`package_name`, `package_version`) sorts in memory in another order than its index's (400 above). */
  packageSortLimit: number;
  /**
   * `SNIPPET_SIZE_LIMIT`: the largest snippet file content (GitLab's `snippet_size_limit`, 50 MB
   * there); 4 MiB here, what a request and a raw answer (base64-encoded) carry through Lambda's 6 MB payloads.
   */
  snippetSizeLimit: number;
  /**
   * `TERRAFORM_STATE_SIZE_LIMIT`: the largest Terraform state a `POST` of state stores (413 above;
   * GitLab's `max_terraform_state_size_bytes`, unlimited there by default); 4 MiB here, what
   * Lambda's 6 MB request and response payloads carry once base64-encoded.
   */
  terraformStateSizeLimit: number;
  /**
   * `LIST_COUNT_LIMIT`: most items a list without a maintained total reads past the page to count
   * the rest (about one more Query page); past it `X-Total` and `X-Total-Pages` are left out.
   */
  listCountLimit: number;
  /**
   * `RESPONSE_BUDGET_BYTES`: the most bytes a list page's JSON body may take in a function's
   * response (escaped, as Lambda's payload carries it) before the page is ended early; 5,000,000,
   * under Lambda's 6 MB payload with room for the headers. Never above that limit.
   */
  responseBudgetBytes: number;
  /** `STREAMED_RESPONSE_BUDGET_BYTES`: the same for groups answered through response streaming; 16,000,000. */
  streamedResponseBudgetBytes: number;
  /** The most a job's payload (`POST /jobs/request`) may take; a job past it is dropped (`scheduler_failure`). */
  jobPayloadLimitBytes: number;
  /** `WRITE_AUDIT=true`: name each route's writes in `X-Route-Writes` (tests' local runtime only; `write-audit.ts`). */
  writeAudit: boolean;
  /** `PROJECT_SORT_LIMIT`: most projects a list sorts in memory for an `order_by` no index serves. */
  projectSortLimit: number;
  /** `GROUP_SORT_LIMIT`: most groups `GET /groups` sorts in memory by name or path. */
  groupSortLimit: number;
  /** `GROUP_ISSUES_PROJECT_LIMIT`: most projects `GET /groups/:id/issues` merges. */
  groupIssuesProjectLimit: number;
  /**
   * `ISSUES_STATISTICS_COUNT_LIMIT`: most issues an `issues_statistics` request reads to count
   * those no maintained count serves (400 past it); 1,000.
   */
  issuesStatisticsCountLimit: number;
  /** `HOOKS_ALLOW_LOCAL_NETWORK`: whether webhooks may target loopback and private addresses (local runtime only). */
  hooksAllowLocalNetwork: boolean;
  /** `SECRET_BOX_KEY`: key material of the secret box, where it is given directly (local runtime). */
  secretBoxKey: string | undefined;
  /** `SECRET_BOX_KEY_SECRET_ARN`: the Secrets Manager secret holding it (deployed). */
  secretBoxKeySecretArn: string | undefined;
  /** `METRICS_NAMESPACE` (or the stack's `POWERTOOLS_METRICS_NAMESPACE`): the CloudWatch namespace of the service's metrics. */
  metricsNamespace: string;
  /**
   * Whether requests emit CloudWatch metrics (EMF lines on stdout): when `POWERTOOLS_METRICS_DISABLED` is set, only
   * if it is false (`false`, `0`, `no`, `off`, as Powertools reads it); otherwise only on Lambda
   * (`AWS_LAMBDA_FUNCTION_NAME`), so that the local runtime and the tests write none unless asked.
   */
  metricsEnabled: boolean;
  /**
   * Whether AWS SDK calls may be traced with X-Ray: on Lambda (`AWS_LAMBDA_FUNCTION_NAME`) unless
   * `POWERTOOLS_TRACE_ENABLED=false`. Powertools' Tracer applies its own checks on top (not in SAM, not outside Lambda).
   */
  tracingEnabled: boolean;
  /** `SCRATCH_DIRECTORY`: where a function keeps files between invocations (git packs); Lambda's `/tmp`, the system's temporary directory locally. */
  scratchDirectory: string;
  /**
   * `PACK_CACHE_BYTES`: how many bytes of git packs a container keeps decoded in memory; a third
   * of the function's memory on Lambda (`AWS_LAMBDA_FUNCTION_MEMORY_SIZE`), 512 MiB otherwise.
   */
  packCacheBytes: number;
  /**
   * `MAX_PUSH_BYTES`: the largest request body of a git push (the pack and its commands):
   * 4,500,000 bytes, what fits in Lambda's 6 MB request payload once API Gateway has
   * base64-encoded it beside the request's headers.
   */
  maxPushBytes: number;
}

/** The values Powertools reads as false in a boolean variable (`POWERTOOLS_METRICS_DISABLED`, `POWERTOOLS_TRACE_ENABLED`). */
const FALSY = new Set(['0', 'n', 'no', 'f', 'false', 'off']);

/** A variable's value, trimmed and lower case ('' when unset). */
const lower = (value: string | undefined) => value?.trim().toLowerCase() ?? '';

/** A positive number from the environment, or the default. */
const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : fallback;
};

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
    maxBodyBytes: positive(process.env.MAX_BODY_BYTES, 10 * 1024 * 1024),
    sshHost: process.env.SSH_HOST || new URL(process.env.EXTERNAL_URL ?? 'http://localhost:3000').hostname,
    maxUploadBytes: positive(process.env.MAX_UPLOAD_BYTES, 4 * 1024 * 1024),
    maxPackageFileBytes: positive(process.env.MAX_PACKAGE_FILE_BYTES, 4 * 1024 * 1024),
    packageSortLimit: positive(process.env.PACKAGE_SORT_LIMIT, 1000),
    snippetSizeLimit: positive(process.env.SNIPPET_SIZE_LIMIT, 4 * 1024 * 1024),
    terraformStateSizeLimit: positive(process.env.TERRAFORM_STATE_SIZE_LIMIT, 4 * 1024 * 1024),
    listCountLimit: positive(process.env.LIST_COUNT_LIMIT, 100),
    responseBudgetBytes: positive(process.env.RESPONSE_BUDGET_BYTES, 5_000_000),
    streamedResponseBudgetBytes: positive(process.env.STREAMED_RESPONSE_BUDGET_BYTES, 16_000_000),
    jobPayloadLimitBytes: positive(process.env.JOB_PAYLOAD_LIMIT_BYTES, 16_000_000),
    writeAudit: process.env.WRITE_AUDIT === 'true',
    projectSortLimit: positive(process.env.PROJECT_SORT_LIMIT, 5000),
    groupSortLimit: positive(process.env.GROUP_SORT_LIMIT, 5000),
    groupIssuesProjectLimit: positive(process.env.GROUP_ISSUES_PROJECT_LIMIT, 100),
    issuesStatisticsCountLimit: positive(process.env.ISSUES_STATISTICS_COUNT_LIMIT, 1000),
    hooksAllowLocalNetwork: process.env.HOOKS_ALLOW_LOCAL_NETWORK === 'true',
    secretBoxKey: process.env.SECRET_BOX_KEY || undefined,
    secretBoxKeySecretArn: process.env.SECRET_BOX_KEY_SECRET_ARN || undefined,
    metricsNamespace: process.env.METRICS_NAMESPACE || process.env.POWERTOOLS_METRICS_NAMESPACE || 'ProjectHosting',
    // Set: only a false value enables them (anything Powertools would not read as a boolean disables them).
    metricsEnabled: lower(process.env.POWERTOOLS_METRICS_DISABLED)
      ? FALSY.has(lower(process.env.POWERTOOLS_METRICS_DISABLED))
      : Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME),
    tracingEnabled: Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME) && !FALSY.has(lower(process.env.POWERTOOLS_TRACE_ENABLED)),
    scratchDirectory: process.env.SCRATCH_DIRECTORY || (process.env.AWS_LAMBDA_FUNCTION_NAME ? '/tmp' : join(tmpdir(), 'project-hosting')),
    maxPushBytes: positive(process.env.MAX_PUSH_BYTES, 4_500_000),
    packCacheBytes: positive(
      process.env.PACK_CACHE_BYTES,
      process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE ? Math.floor((positive(process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE, 1024) * 1024 * 1024) / 3) : 512 * 1024 * 1024,
    ),
  };
  return cached;
}

/** Test hook: forget the cached configuration after changing the environment. */
export function resetConfig(): void {
  cached = undefined;
}
