/** Readiness (GET /readyz): whether the database the service cannot answer without answers. */
export interface HealthProbe {
  /** Resolves when the database answers, rejects when it does not. */
  checkDatabase(): Promise<void>;
}

export const HEALTH_PROBE = Symbol('HealthProbe');
