import type { Metrics } from '@aws-lambda-powertools/metrics';
import type { ApiMiddleware, ApiRequest } from '../http/context';
import { invocationMetrics, METRIC, MetricUnit, traceInvocation, type InvocationTrace } from '../observability';

/** What one invocation carries from `before` to its end: never shared with another invocation. */
interface InFlight {
  startedAt: number;
  metrics: Metrics | undefined;
  trace: InvocationTrace | undefined;
}

/** The middleware, with its hooks always present and synchronous (the request logger calls them). */
export interface RequestTelemetry extends ApiMiddleware {
  before: (request: ApiRequest) => void;
  after: (request: ApiRequest) => void;
  onError: (request: ApiRequest) => void;
}

/** `2xx`, `3xx`, `4xx`, `5xx`: a bounded dimension, unlike the status itself. */
export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;

/**
 * Metrics and the trace subsegment of every request (`shared/platform/observability.ts`), closed
 * when the request ends, answered or failed: after the response, or on an error (a request whose
 * error no middleware answers counts as a 500: API Gateway answers 502).
 *
 * One EMF line per request, of the namespace `config().metricsNamespace`:
 * - `Requests` (Count) and `Latency` (Milliseconds, from this middleware's `before` to its end),
 *   in two dimension sets: `[service, function, statusClass]` (alarms on 5xx, latency of the
 *   errors) and `[service, function]` (percentiles of one function, which CloudWatch cannot
 *   compute across the status classes afterwards). `function` is the endpoint group (`users`,
 *   `projects`, ...), one per Lambda function; `unknown` for a request no route matched.
 * - `route` (`GET /projects/:id`) and `requestId` as properties of the line, not dimensions: the
 *   ~110 routes times the status classes would make hundreds of billed metrics; CloudWatch Logs
 *   Insights reads them from the same lines (`stats pct(Latency, 99) by route`), and X-Ray has
 *   the route as an annotation.
 * - `ColdStart` (Count, `[service, function]`) on the first invocation of an on-demand sandbox
 *   (Powertools' rule, as the `coldStart` of the log lines), as a line of its own.
 *
 * Isolation: each invocation has its own Metrics instance, kept per middy request; only the
 * cold-start flag is the function's. A metrics failure is logged and never fails the request.
 */
export function requestTelemetry(): RequestTelemetry {
  const inFlight = new WeakMap<ApiRequest, InFlight>();
  /** Internal: the function's sandbox, for its cold-start metric only; created at its first invocation. */
  let sandbox: Metrics | undefined;

  const requestTelemetryBefore = (request: ApiRequest) => {
    inFlight.set(request, { startedAt: performance.now(), metrics: guarded(request, invocationMetrics), trace: guarded(request, traceInvocation) });
  };

  const requestTelemetryEnd = (request: ApiRequest) => {
    const state = inFlight.get(request);
    if (!state) return;
    inFlight.delete(request);
    const latency = performance.now() - state.startedAt;
    const spec = request.context.route?.spec;
    const status = request.response?.statusCode ?? 500;
    const route = spec?.key ?? 'unmatched';
    guarded(request, () => state.trace?.end({ annotations: { route, status }, status, error: request.error }));
    const metrics = state.metrics;
    if (!metrics) return;
    guarded(request, () => {
      const dimensions = { function: spec?.group ?? 'unknown' };
      // Powertools writes it (a line of its own) only at the sandbox's first call, and only for on-demand sandboxes.
      sandbox ??= invocationMetrics(dimensions);
      sandbox?.captureColdStartMetric();
      metrics
        .setDefaultDimensions(dimensions)
        .addDimension('statusClass', statusClass(status))
        // A second dimension set: the default dimensions alone (service, function).
        .addDimensions({})
        .addMetadata('route', route)
        .addMetadata('requestId', request.context.requestId)
        .addMetric(METRIC.requests, MetricUnit.Count, 1)
        .addMetric(METRIC.latency, MetricUnit.Milliseconds, Math.round(latency * 1000) / 1000)
        .publishStoredMetrics();
    });
  };

  return { before: requestTelemetryBefore, after: requestTelemetryEnd, onError: requestTelemetryEnd };
}

/** Internal: runs `work`, logging (never throwing) what it throws: telemetry must not fail a request. */
function guarded<T>(request: ApiRequest, work: () => T): T | undefined {
  try {
    return work();
  } catch (error) {
    request.context.log?.warn('telemetry failed', { error });
    return undefined;
  }
}
