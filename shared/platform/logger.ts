/**
 * Structured JSON logs, one object per line, so CloudWatch Logs Insights (and `jq` locally) can
 * query them. Written by Powertools for AWS Lambda's Logger (level filtering, Lambda context,
 * X-Ray trace id, error serialisation, Lambda's Advanced Logging Controls), behind the small
 * {@link Logger} interface the rest of the code uses.
 *
 * A line: `{"level":"info","time":"…","message":"request","service":"project-hosting",
 * "functionName":"…","functionRequestId":"…","coldStart":false,"requestId":"…", …fields}`.
 * Levels are lower case and the keys camelCase, like the fields the code logs; errors are
 * `{name, message, stack, cause}` (a `cause` only when it is an Error: middy's body parsers put
 * the raw body in theirs). `warn` and `error` lines go to stderr, `debug` and `info` to stdout,
 * as Node's console writes them. Fields whose value is undefined, null or '' are left out.
 *
 * The level is `LOG_LEVEL` (`config().logLevel`); on Lambda, an application log level set with
 * Advanced Logging Controls (`AWS_LAMBDA_LOG_LEVEL`) wins, as Powertools wants.
 *
 * Every request gets its own child logger ({@link loggerForInvocation}, called by the
 * request-logger middleware) carrying its request id and its Lambda context. A child rather than
 * Powertools' `injectLambdaContext` middleware on one shared logger, because the local runtime
 * runs the invocations of every function concurrently in one process: state on a shared logger
 * would leak between requests.
 *
 * Secrets: the event is never logged (it carries `PRIVATE-TOKEN`, `Authorization` and
 * `private_token`), and values under secret-looking keys are replaced wherever they appear in a
 * line ({@link redactSecrets}).
 */
import { LogFormatter, LogItem, LogLevelThreshold, Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { ConstructorOptions, LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import type { Context } from 'aws-lambda';
import { config, type Config, type LogLevel } from './config';

export type { LogLevel };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

type Fields = Record<string, unknown>;

/** Internal: key names (lower case, without `-` and `_`) whose values are never written. */
const SECRET_KEYS = new Set(['authorization', 'privatetoken', 'token', 'password', 'secret', 'xgitlabtoken', 'cookie', 'setcookie']);

/**
 * Internal: the JSON replacer of every line. Replaces the value of any key that names a secret
 * (`Authorization`, `PRIVATE-TOKEN`, `private_token`, `token`, `password`, ...), at any depth, so
 * that a header map or a parameter object logged by mistake does not leak credentials.
 */
function redactSecrets(key: string, value: unknown): unknown {
  return value !== undefined && SECRET_KEYS.has(key.toLowerCase().replace(/[-_]/g, '')) ? '[REDACTED]' : value;
}

/** Internal: our line layout (see the file header), as a Powertools log formatter. */
class LineFormatter extends LogFormatter {
  public override formatAttributes(attributes: UnformattedAttributes, fields: LogAttributes): LogItem {
    const lambda = attributes.lambdaContext;
    return new LogItem({
      attributes: {
        level: attributes.logLevel.toLowerCase(),
        time: this.formatTimestamp(attributes.timestamp),
        message: attributes.message,
        service: attributes.serviceName,
        functionName: lambda?.functionName,
        functionRequestId: lambda?.awsRequestId,
        coldStart: lambda?.coldStart,
        xrayTraceId: attributes.xRayTraceId,
      },
    }).addAttributes(fields);
  }

  /** Name, message, stack and an Error `cause` only: enumerable extras (SDK responses, parser input) stay out. */
  public override formatError(error: Error): LogAttributes {
    return { name: error.name, message: error.message, stack: error.stack, cause: error.cause instanceof Error ? error.cause : undefined };
  }
}

/**
 * Internal: Powertools' Logger, counting the cold start once per sandbox. Powertools counts it
 * per logger instance, and every request has its own child: the root decides, once per
 * invocation, and its children (and theirs) report that decision.
 */
class ServiceLogger extends PowertoolsLogger {
  /** The invocation's cold start as the root decided it; undefined on the root. */
  #invocationColdStart?: boolean;

  /** Whether the invocation starting now is the sandbox's first (true once): decided when it starts. */
  public invocationColdStart(): boolean {
    return this.getColdStart();
  }

  /** A child for one invocation: `fields` and the Lambda context (function, cold start) on every line. */
  public forInvocation(context: Context, fields: Fields, coldStart: boolean): ServiceLogger {
    const child = this.createChild({ persistentKeys: fields }) as ServiceLogger;
    child.#invocationColdStart = coldStart;
    child.addContext(context);
    return child;
  }

  protected override getColdStart(): boolean {
    return this.#invocationColdStart ?? super.getColdStart();
  }

  protected override createLogger(options?: ConstructorOptions): ServiceLogger {
    const child = new ServiceLogger(options);
    child.#invocationColdStart = this.#invocationColdStart ?? false;
    return child;
  }
}

let root: { config: Config; logger: ServiceLogger } | undefined;

/**
 * Internal: the service's root logger, created at first use, not at import: the local runtime sets
 * `LOG_LEVEL` after this module is loaded (and tests change it with `resetConfig()`); a new
 * configuration gives a new root.
 */
function serviceLogger(): ServiceLogger {
  const current = config();
  if (root?.config !== current) {
    const logger = new ServiceLogger({
      serviceName: current.serviceName,
      logLevel: current.logLevel,
      logFormatter: new LineFormatter(),
      jsonReplacerFn: redactSecrets,
    });
    root = { config: current, logger };
  }
  return root.logger;
}

/**
 * Internal: our interface over a Powertools logger, found at each call by `resolve`. With
 * `threshold` (the level's number, as Powertools numbers them), lines below it are dropped before
 * `resolve` is called, so a logger that is made on first use is never made for them.
 */
function adapt(resolve: () => PowertoolsLogger, threshold?: number): Logger {
  const writes = (level: keyof typeof LogLevelThreshold) => threshold === undefined || LogLevelThreshold[level] >= threshold;
  return {
    debug: (message, fields) => writes('DEBUG') && resolve().debug(message, fields ?? {}),
    info: (message, fields) => writes('INFO') && resolve().info(message, fields ?? {}),
    warn: (message, fields) => writes('WARN') && resolve().warn(message, fields ?? {}),
    error: (message, fields) => writes('ERROR') && resolve().error(message, fields ?? {}),
    child: (fields) => {
      const child = resolve().createChild({ persistentKeys: fields });
      return adapt(() => child);
    },
  };
}

/**
 * A logger of the service with `fields` on every line.
 *
 * @example
 * const log = createLogger({ component: 'stream-poller' });
 * log.warn('the table has a new stream', { streamArn });
 */
export function createLogger(fields: Fields = {}): Logger {
  let made: { root: ServiceLogger; logger: PowertoolsLogger } | undefined;
  return adapt(() => {
    const current = serviceLogger();
    if (made?.root !== current) {
      made = { root: current, logger: Object.keys(fields).length > 0 ? current.createChild({ persistentKeys: fields }) : current };
    }
    return made.logger;
  });
}

/**
 * The logger of one Lambda invocation: `fields` (the request id) and the function's name, its
 * request id and whether this is a cold start on every line.
 *
 * @example
 * request.context.log = loggerForInvocation(request.context, { requestId });
 */
export function loggerForInvocation(context: Context, fields: Fields): Logger {
  // The child is made on the first line written (making one costs as much as a DynamoDB call's
  // client-side work, and below `info` most requests write none); the cold start is decided now.
  const root = serviceLogger();
  const coldStart = root.invocationColdStart();
  let child: ServiceLogger | undefined;
  return adapt(() => (child ??= root.forInvocation(context, fields, coldStart)), root.level);
}

/** The service's logger, for code outside a request (webhook delivery, bootstrap). */
export const logger: Logger = createLogger();
