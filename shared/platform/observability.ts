/**
 * Metrics and traces of the deployed stack, with Powertools for AWS Lambda (the logs are `logger.ts`).
 *
 * Metrics are CloudWatch embedded metric format (EMF) lines on stdout, which CloudWatch Logs turns
 * into metrics of the namespace `config().metricsNamespace` (`ProjectHosting`); no API call, no
 * permission beyond the function's log group. Every invocation gets its own {@link Metrics}
 * instance ({@link invocationMetrics}): Powertools keeps a shared instance's buffered metrics and
 * dimensions in one place per process (it scopes them per invocation only on Lambda Managed
 * Instances), and the local runtime runs the invocations of every function concurrently in one
 * process, so one instance would mix the metrics of concurrent requests. They are off unless
 * `config().metricsEnabled` (on Lambda, or `POWERTOOLS_METRICS_DISABLED=false`).
 *
 * Traces: the AWS SDK clients are wrapped with X-Ray ({@link traced}) and each API request is a
 * subsegment annotated with its route ({@link traceInvocation}), only where
 * `config().tracingEnabled` (on Lambda, unless `POWERTOOLS_TRACE_ENABLED=false`) and Powertools
 * agrees (it also disables itself outside Lambda and under SAM). Outgoing HTTP requests are not
 * traced: X-Ray would add its trace header to webhook deliveries, whose headers are GitLab's.
 *
 * Cost: the Tracer loads the X-Ray SDK, which installs an async hook (cls-hooked) as it loads; that
 * hook makes every promise about ten times costlier (300k awaits: 29 ms without, 325 ms with) and
 * adds ~150 µs of CPU per AWS SDK call. So the Tracer's module is loaded at its first use, and
 * {@link traced} and {@link traceInvocation} use it only where `config().tracingEnabled`: the
 * tests, the local runtime and the benchmarks never load it (unless a test asks for
 * {@link tracer}), Lambda loads it with the first AWS SDK client.
 */
import { createRequire as requireFrom } from 'node:module';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type * as PowertoolsTracer from '@aws-lambda-powertools/tracer';
import { config, type Config } from './config';

type TracerModule = typeof PowertoolsTracer;
type Tracer = PowertoolsTracer.Tracer;

let tracerModule: TracerModule | undefined;

/**
 * Powertools' Tracer module, loaded synchronously at first use. The Lambda bundle (esbuild, ESM
 * with a `require` banner) inlines the module a literal `require` names and evaluates it only
 * when that call runs; where no `require` exists (tsx, vitest: ESM), one made for this module
 * loads it from `node_modules`.
 */
function loadTracerModule(): TracerModule {
  if (!tracerModule) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    tracerModule = (typeof require === 'function' ? require('@aws-lambda-powertools/tracer') : requireFrom(import.meta.url)('@aws-lambda-powertools/tracer')) as TracerModule;
  }
  return tracerModule;
}

/**
 * The names of the service's metrics. Dimensions: `service` (Powertools adds it to every metric),
 * `function` (the endpoint group, one Lambda function each) and, for requests, `statusClass`.
 */
export const METRIC = {
  /** One per API request (Count), by function and status class, and by function. */
  requests: 'Requests',
  /** A request's duration in the function, middleware included (Milliseconds), by function and status class, and by function. */
  latency: 'Latency',
  /** One per cold start of a function's sandbox (Count), by function. */
  coldStart: 'ColdStart',
} as const;

export { MetricUnit };

/**
 * A Powertools Metrics instance for one invocation (never shared between invocations), or
 * undefined when metrics are off. Its default dimensions are `service` (`config().serviceName`)
 * and `defaultDimensions`.
 */
export function invocationMetrics(defaultDimensions?: Record<string, string>): Metrics | undefined {
  const { metricsEnabled, metricsNamespace, serviceName } = config();
  return metricsEnabled ? new Metrics({ namespace: metricsNamespace, serviceName, defaultDimensions }) : undefined;
}

/** Powertools' Tracer, as {@link tracer} builds it: never tracing outgoing HTTP requests (webhooks). Loads the X-Ray SDK. */
export function createTracer(): Tracer {
  const { tracingEnabled, serviceName } = config();
  return new (loadTracerModule().Tracer)({ serviceName, enabled: tracingEnabled, captureHTTPsRequests: false });
}

let made: { config: Config; tracer: Tracer } | undefined;

/**
 * The process's tracer, created at first use, not at import (the local runtime sets the
 * environment after loading this module), and again for a new configuration (`resetConfig()`).
 * It holds no per-request state: the active segment lives in the X-Ray SDK's async context.
 */
export function tracer(): Tracer {
  const current = config();
  if (made?.config !== current) made = { config: current, tracer: createTracer() };
  return made.tracer;
}

/**
 * `client` with its calls traced as X-Ray subsegments where tracing is on; `client` unchanged
 * otherwise.
 *
 * @example
 * const client = traced(new S3Client({}));
 */
export function traced<Client>(client: Client): Client {
  if (!config().tracingEnabled) return client;
  return tracer().captureAWSv3Client(client);
}

/** A request's X-Ray subsegment, ended once the response is known. */
export interface InvocationTrace {
  /**
   * Annotates the subsegment (searchable in X-Ray: `annotation.route = "GET /projects/:id"`),
   * flags it from the status (4xx error, 5xx fault, with `error` attached when given) and closes it.
   */
  end(outcome: { annotations: Record<string, string | number | boolean>; status: number; error?: unknown }): void;
}

/**
 * Opens the invocation's subsegment (`## handler`, annotated with the service and the cold start,
 * as Powertools' `captureLambdaHandler` does) and makes it the active one, so that the AWS SDK
 * calls of the request nest in it. Lambda's own segment cannot be annotated, hence the subsegment.
 * Undefined where tracing is off.
 */
export function traceInvocation(): InvocationTrace | undefined {
  if (!config().tracingEnabled) return undefined;
  const current = tracer();
  if (!current.isTracingEnabled()) return undefined;
  const parent = current.getSegment();
  if (!parent) return undefined;
  const subsegment = parent.addNewSubsegment('## handler');
  current.setSegment(subsegment);
  current.annotateColdStart();
  current.addServiceNameAnnotation();
  let ended = false;
  return {
    end({ annotations, status, error }) {
      if (ended) return;
      ended = true;
      for (const [key, value] of Object.entries(annotations)) subsegment.addAnnotation(key, value);
      if (status >= 500) {
        if (error instanceof Error) subsegment.addError(error);
        else subsegment.addFaultFlag();
      } else if (status >= 400) {
        subsegment.addErrorFlag();
      }
      subsegment.close();
      current.setSegment(parent);
    },
  };
}
