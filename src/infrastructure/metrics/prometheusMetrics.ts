import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from 'pino';
import { inject, injectable } from '../../application/injection.js';
import { LOGGER } from '../../application/ports/logger.js';
import type { OperationalMetrics } from '../../application/ports/operationalMetrics.js';
import { OperationsStatus } from '../../application/operations/operationsStatus.js';
import { ACCESS_POINT_IDENTITY, type AccessPointIdentity } from '../as4/accessPointIdentity.js';
import { buildGeneration } from '../buildGeneration.js';

/**
 * The service's Prometheus metrics, in a registry of its own (several services may share a
 * process, as in tests): requests per route (a latency histogram, whose _count is the rate),
 * delivery attempts by outcome and transport, AS4 messages refused by ebMS error code, worker
 * tasks refused by reason, and, read when scraped, the delivery queue and the projections' lag
 * behind the log; this AP's certificate expiry and the build running. Plus the process's default
 * metrics. deploy/prometheus/ alerts on them and deploy/grafana/ charts them (docs/operating/monitoring.md).
 */
@injectable()
export class PrometheusMetrics implements OperationalMetrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status'>;
  private readonly deliveries: Counter<'transport' | 'outcome'>;
  private readonly as4Refusals: Counter<'code'>;
  private readonly workRefusals: Counter<'reason'>;
  private readonly logger: Logger;

  constructor(
    @inject(OperationsStatus) status: OperationsStatus,
    @inject(ACCESS_POINT_IDENTITY) identity: AccessPointIdentity | null,
    @inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'metrics' });
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status: how long they took',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.deliveries = new Counter({
      name: 'document_delivery_attempts_total',
      help: 'Delivery attempts of documents by transport and outcome (delivered, retryable, permanent)',
      labelNames: ['transport', 'outcome'],
      registers,
    });
    this.as4Refusals = new Counter({
      name: 'as4_messages_refused_total',
      help: 'AS4 messages this access point refused, by the ebMS error code of its answer (one per code)',
      labelNames: ['code'],
      registers,
    });
    this.workRefusals = new Counter({
      name: 'work_tasks_refused_total',
      help: 'Document tasks the worker processes refused: time_budget, memory_budget, busy, worker_failed',
      labelNames: ['reason'],
      registers,
    });
    if (identity)
      new Gauge({
        name: 'as4_certificate_expiry_timestamp_seconds',
        help: "When this access point's AS4 certificate (AS4_CERTIFICATE_FILE) expires, in Unix seconds",
        registers,
      }).set(Math.floor(new Date(identity.key.certificate.validTo).getTime() / 1000));
    const build = buildGeneration();
    new Gauge({
      name: 'invoicing_build_info',
      help: "The build generation (build/<id>) this process runs, or 'unversioned' outside one; always 1",
      labelNames: ['generation'],
      registers,
    }).set({ generation: build?.id ?? 'unversioned' }, 1);
    const warn = (what: string) => (error: unknown) => this.logger.warn({ err: error }, `reading ${what} failed`);
    new Gauge({
      name: 'document_delivery_queue_depth',
      help: 'Documents in TRANSIT waiting for a retry of their delivery',
      registers,
      async collect() {
        await status.queueDepth().then((n) => this.set(n), warn('the delivery queue'));
      },
    });
    new Gauge({
      name: 'projection_lag_events',
      help: "How many positions of the event log each projection is behind the log's head",
      labelNames: ['projection'],
      registers,
      async collect() {
        await status.projectionLag().then((lags) => {
          this.reset();
          for (const { name, lag } of lags) this.set({ projection: name }, lag);
        }, warn('the projections'));
      },
    });
  }

  deliveryAttempted(transport: string, outcome: 'delivered' | 'retryable' | 'permanent'): void {
    this.deliveries.inc({ transport, outcome });
  }

  as4Refused(errorCode: string): void {
    this.as4Refusals.inc({ code: errorCode });
  }

  workRefused(reason: string): void {
    this.workRefusals.inc({ reason });
  }

  requestServed(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe({ method: method.toUpperCase(), route, status: String(status) }, seconds);
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
