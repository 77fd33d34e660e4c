/**
 * An open-loop HTTP load generator: requests arrive at a given mean rate whether or not earlier
 * ones have been answered, as independent clients would send them, and each request's latency is
 * counted from the moment it was due, so time spent waiting for a free connection (or for this
 * process's own event loop) counts against the service (no coordinated omission).
 *
 * Why not autocannon's `overallRate`: it lets each connection send its per-second quota back to
 * back at the start of every second and then idle (mcollina/autocannon#174, "a heartbeat"), so
 * 120/s over 16 connections is 16 concurrent callers for a few hundred milliseconds each second;
 * and its coordinated-omission correction then assumes an expected interval of
 * ceil(1 / per-connection rate) = 1 ms, adding a synthetic sample for every millisecond of each
 * response. Neither is the steady stream the figure is meant to describe.
 *
 * Arrivals are a Poisson process (exponential gaps, from a seeded generator so runs are
 * comparable): independent clients clump now and then, which evenly spaced requests never do.
 */
import http from 'node:http';

/** The p-th percentile of ascending samples (nearest rank); NaN when there are none. */
export const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export interface OpenLoopRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface OpenLoopOptions {
  /** e.g. http://127.0.0.1:3000 */
  base: string;
  /** Mean arrivals per second. */
  rate: number;
  count: number;
  /** At most this many requests in flight; a request due while all are busy waits for one. */
  connections: number;
  request: (index: number) => OpenLoopRequest;
  /** Given each response's body (collected only when this is set). */
  onResponse?: (index: number, body: string) => void;
  seed?: number;
}

export interface OpenLoopResult {
  /** Per request, due time to last response byte, in ms, in the order they were due. */
  latencies: number[];
  statusCounts: Record<string, number>;
  errors: number;
  /** Network errors by code (ECONNRESET, …). */
  errorCodes: Record<string, number>;
  /** First request due to last response. */
  elapsedMs: number;
}

/** mulberry32: a small seeded generator, good enough for arrival times. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Sends requests and keeps their outcomes; each latency runs from the moment given to `send`. */
function requester(options: Pick<OpenLoopOptions, 'base' | 'count' | 'connections' | 'request' | 'onResponse'>) {
  const url = new URL(options.base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies = new Array<number>(options.count);
  const statusCounts: Record<string, number> = {};
  const errorCodes: Record<string, number> = {};
  let errors = 0;
  const send = (index: number, from: number) =>
    new Promise<void>((resolve) => {
      const { method, path, headers, body } = options.request(index);
      const request = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method,
          path,
          headers: { ...headers, ...(body ? { 'Content-Length': Buffer.byteLength(body) } : {}) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => options.onResponse && chunks.push(chunk));
          response.on('end', () => {
            options.onResponse?.(index, Buffer.concat(chunks).toString('utf8'));
            latencies[index] = performance.now() - from;
            statusCounts[response.statusCode!] = (statusCounts[response.statusCode!] ?? 0) + 1;
            resolve();
          });
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        latencies[index] = performance.now() - from;
        errors++;
        const code = error.code ?? error.message;
        errorCodes[code] = (errorCodes[code] ?? 0) + 1;
        resolve();
      });
      request.end(body);
    });
  const result = (started: number): OpenLoopResult => {
    agent.destroy();
    return { latencies, statusCounts, errors, errorCodes, elapsedMs: performance.now() - started };
  };
  return { send, result };
}

export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const { send, result } = requester(options);
  const random = seededRandom(options.seed ?? 1);
  const started = performance.now();
  let due = started;
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < options.count; i++) {
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(send(i, due));
    due += (-Math.log(1 - random()) / options.rate) * 1000;
  }
  await Promise.all(inFlight);
  return result(started);
}

/**
 * A closed loop: `connections` clients, each sending its next request as soon as its last one is
 * answered, for the most a server sustains. Each latency is the request's own, from when it was sent.
 */
export async function closedLoop(options: Omit<OpenLoopOptions, 'rate' | 'seed'>): Promise<OpenLoopResult> {
  const { send, result } = requester(options);
  const started = performance.now();
  let next = 0;
  const client = async () => {
    while (next < options.count) {
      const index = next++;
      await send(index, performance.now());
    }
  };
  await Promise.all(Array.from({ length: options.connections }, client));
  return result(started);
}
