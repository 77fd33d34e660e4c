import type { OperationsStatus } from '../../../application/operations/operationsStatus.js';
import type { OperationalMetrics } from '../../../application/ports/operationalMetrics.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import type * as t from 'io-ts';
import { LivenessAnswer, ReadinessAnswer } from '../../codecs/peppolAnswers.js';

export function healthRoutes(
  routes: RouteRegistry,
  operations: { status: OperationsStatus; metrics: OperationalMetrics },
): void {
  routes.add({
    method: 'get',
    path: '/healthz',
    summary: 'Liveness: the process answers',
    tag: 'health',
    auth: 'none',
    answer: LivenessAnswer,
    handler: (_req, _res, answer) => answer({ status: 'ok' }),
  });
  routes.add({
    method: 'get',
    path: '/readyz',
    summary:
      'Readiness: the database answers and the projections follow the event log (each with its position and lag behind the head)',
    tag: 'health',
    auth: 'none',
    responses: {
      200: 'Ready: {status: "ready", database: "ok", projections: {status, items: [{name, position, lag}]}}',
      503: 'Not ready: the database is unreachable or the projections do not run (same shape, status "not_ready", and detail)',
    },
    answer: ReadinessAnswer,
    handler: async (_req, res, answer) => {
      const readiness = await operations.status.readiness();
      const body: t.TypeOf<typeof ReadinessAnswer> = {
        status: readiness.ready ? 'ready' : 'not_ready',
        database: readiness.database,
        projections: readiness.projections,
      };
      if (readiness.ready) answer(body);
      else
        res.status(503).json({
          detail:
            readiness.database === 'ok' ? 'The projections are not following the event log' : 'Database unreachable',
          ...body,
        });
    },
  });
  routes.add({
    method: 'get',
    path: '/metrics',
    summary:
      'Prometheus metrics: requests per route (latency histogram), delivery attempts by transport and outcome, the delivery queue, projection lag, the process',
    tag: 'health',
    auth: 'none',
    responses: { 200: 'The metrics in the Prometheus text format' },
    media: { 'text/plain': 'Prometheus text exposition format' },
    handler: async (_req, res) => {
      const { contentType, body } = await operations.metrics.exposition();
      res.set('Content-Type', contentType).send(body);
    },
  });
}
