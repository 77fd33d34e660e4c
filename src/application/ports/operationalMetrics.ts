/**
 * What the service reports for monitoring, and the exposition of it (the infrastructure keeps
 * them as Prometheus metrics). Reporting never fails and never waits.
 */
export interface OperationalMetrics {
  /** One delivery attempt of a document and how it went. */
  deliveryAttempted(transport: string, outcome: 'delivered' | 'retryable' | 'permanent'): void;
  /** One AS4 message refused, once per ebMS error code its answer carries (e.g. EBMS:0101). */
  as4Refused(errorCode: string): void;
  /** One task of the worker processes refused: time_budget, memory_budget, busy, worker_failed. */
  workRefused(reason: string): void;
  /** One HTTP request answered: `route` is the route's pattern (e.g. /api/documents/:documentId), never the raw path. */
  requestServed(method: string, route: string, status: number, seconds: number): void;
  /** Everything measured, in the text exposition format, with its media type. */
  exposition(): Promise<{ contentType: string; body: string }>;
}

export const OPERATIONAL_METRICS = Symbol('OperationalMetrics');
