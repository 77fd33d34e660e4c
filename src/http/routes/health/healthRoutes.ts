import type { HealthProbe } from '../../../application/ports/healthProbe.js';
import type { RouteRegistry } from '../../routeRegistry.js';

export function healthRoutes(routes: RouteRegistry, health: HealthProbe): void {
  routes.add({
    method: 'get',
    path: '/healthz',
    summary: 'Liveness: the process answers',
    tag: 'health',
    auth: 'none',
    handler: (_req, res) => res.json({ status: 'ok' }),
  });
  routes.add({
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: the database answers',
    tag: 'health',
    auth: 'none',
    responses: { 200: 'Ready', 503: 'Database unreachable' },
    handler: async (_req, res) => {
      try {
        await health.checkDatabase();
        res.json({ status: 'ready', database: 'ok' });
      } catch {
        res.status(503).json({ detail: 'Database unreachable' });
      }
    },
  });
}
