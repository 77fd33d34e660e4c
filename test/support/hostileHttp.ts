import { treeMemory } from './processTree.js';

/** One HTTP request as the hostile-input tests describe it, so a failure can be reported and replayed. */
export interface HostileRequest {
  method: string;
  /** Path and query, already encoded (may hold deliberately malformed percent-escapes). */
  path: string;
  key: string;
  /** A JSON value, serialized with JSON.stringify. */
  json?: unknown;
  /** A body sent as is, with `contentType`. */
  raw?: Buffer | string;
  contentType?: string;
  /** multipart/form-data with one file part, built byte by byte (the file name may hold anything). */
  file?: { field?: string; fileName: Buffer | string; contentType: string; data: Buffer | string };
  timeoutMs?: number;
}

export interface HostileResponse {
  status: number;
  text: string;
  body: unknown;
  contentType: string;
}

const BOUNDARY = '----hostile-suite-boundary-7d2f3a';

/** A multipart body whose part headers are written raw (a browser would escape the file name). */
export function multipartBody(file: NonNullable<HostileRequest['file']>): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="`),
    Buffer.isBuffer(file.fileName) ? file.fileName : Buffer.from(file.fileName),
    Buffer.from(`"\r\nContent-Type: ${file.contentType}\r\n\r\n`),
    Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

export async function send(baseUrl: string, req: HostileRequest): Promise<HostileResponse> {
  const headers: Record<string, string> = { Authorization: `Bearer ${req.key}` };
  let body: Buffer | string | undefined;
  if (req.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(req.json);
  } else if (req.raw !== undefined) {
    headers['Content-Type'] = req.contentType ?? 'application/octet-stream';
    body = req.raw;
  } else if (req.file) {
    headers['Content-Type'] = `multipart/form-data; boundary=${BOUNDARY}`;
    body = multipartBody(req.file);
  }
  const res = await fetch(`${baseUrl}${req.path}`, {
    method: req.method,
    headers,
    // A Blob: fetch's BodyInit types do not take a Buffer (it is sent byte for byte either way).
    body: typeof body === 'string' || body === undefined ? body : new Blob([new Uint8Array(body)]),
    signal: AbortSignal.timeout(req.timeoutMs ?? 60_000),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, text, body: parsed, contentType: res.headers.get('content-type') ?? '' };
}

/** What is wrong with a 4xx body, by the spec's error shape `{detail: string | [{loc, msg, type}]}`; null when it is right. */
export function errorShapeProblem(res: HostileResponse): string | null {
  if (res.body === undefined || res.body === null || typeof res.body !== 'object')
    return `not a JSON object: ${res.text.slice(0, 200)}`;
  const detail = (res.body as { detail?: unknown }).detail;
  if (typeof detail === 'string') return null;
  if (!Array.isArray(detail)) return `no detail string or array: ${res.text.slice(0, 200)}`;
  for (const item of detail) {
    const { loc, msg, type } = (item ?? {}) as { loc?: unknown; msg?: unknown; type?: unknown };
    if (!Array.isArray(loc) || typeof msg !== 'string' || typeof type !== 'string')
      return `detail item is not {loc, msg, type}: ${JSON.stringify(item).slice(0, 200)}`;
  }
  return null;
}

/** Every message of an error body, joined (for assertions on what a message says). */
export function errorText(res: HostileResponse): string {
  const detail = (res.body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail))
    return detail.map((d: { msg?: string; loc?: unknown[] }) => `${JSON.stringify(d.loc)} ${d.msg}`).join('\n');
  return res.text.slice(0, 500);
}

/** A printable one-line excerpt of a request, escapes visible, long strings cut. */
export function describeRequest(req: HostileRequest): string {
  const cut = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);
  const path = cut(req.path, 200);
  let body = '';
  if (req.json !== undefined) body = ` json=${cut(JSON.stringify(JSON.stringify(req.json) ?? 'undefined'))}`;
  else if (req.raw !== undefined) body = ` ${req.contentType} raw=${cut(JSON.stringify(req.raw.toString()))}`;
  else if (req.file)
    body = ` multipart file name=${JSON.stringify(req.file.fileName.toString())} type=${req.file.contentType} data=${cut(JSON.stringify(req.file.data.toString()))}`;
  return `${req.method} ${path}${body}`;
}

/**
 * A path segment percent-encoded byte by byte. Lone surrogates are written as the 3 bytes
 * WTF-8 would give them (%ED%A0%80 …), which is not UTF-8: what a hostile client can send.
 */
export function encodeSegment(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    let bytes: number[];
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      bytes = [...Buffer.from(text.slice(i, i + 2))];
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
    } else {
      bytes = [...Buffer.from(text[i]!)];
    }
    for (const b of bytes)
      out +=
        /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) && b < 0x80
          ? String.fromCharCode(b)
          : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `text` as bytes, lone surrogates included as WTF-8 (Buffer.from would replace them with U+FFFD). */
export const wtf8 = (text: string): Buffer => Buffer.from(decodeURIComponentBytes(encodeSegment(text)));
const decodeURIComponentBytes = (encoded: string): number[] => {
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    if (encoded[i] === '%') {
      bytes.push(parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(encoded.charCodeAt(i));
  }
  return bytes;
};

/**
 * While the suite runs: GET /api/me for a bystander tenant every ~100 ms (each with a 5 s limit),
 * and the resident memory of the service's process tree every ~200 ms.
 */
export class Watchdog {
  readonly calls: Array<{ status: number | string; ms: number; at: number; label: string }> = [];
  readonly memory: Array<{
    at: number;
    label: string;
    rssBytes: number;
    shmemBytes: number;
    byCommand: Record<string, number>;
  }> = [];
  /** What the suite is doing now (the current test's title), kept with each sample. */
  label = '';
  private running = true;
  private loop: Promise<void> = Promise.resolve();
  private sampler: NodeJS.Timeout | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
    private readonly pid: number,
  ) {}

  start(): void {
    this.sampler = setInterval(() => {
      const m = treeMemory(this.pid);
      this.memory.push({
        at: Date.now(),
        label: this.label,
        rssBytes: m.rssBytes,
        shmemBytes: m.shmemBytes,
        byCommand: m.byCommand,
      });
    }, 200);
    this.loop = (async () => {
      while (this.running) {
        const started = performance.now();
        let status: number | string;
        try {
          const res = await fetch(`${this.baseUrl}/api/me`, {
            headers: { Authorization: `Bearer ${this.key}` },
            signal: AbortSignal.timeout(5000),
          });
          await res.arrayBuffer();
          status = res.status;
        } catch (error) {
          status = (error as Error).name === 'TimeoutError' ? 'timeout (5 s)' : String((error as Error).message);
        }
        const ms = performance.now() - started;
        this.calls.push({ status, ms, at: Date.now(), label: this.label });
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 100 - ms)));
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.sampler);
    await this.loop;
  }

  /** Latency percentile of the /api/me calls, in ms. */
  percentile(p: number): number {
    const sorted = this.calls.map((c) => c.ms).sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  }

  /** The highest resident memory of the processes named `command` (e.g. node: the service and its worker processes). */
  maxMemoryOf(command: string): number {
    return this.memory.reduce((max, m) => Math.max(max, m.byCommand[command] ?? 0), 0);
  }

  maxMemory() {
    return this.memory.reduce((max, m) => (m.rssBytes > max.rssBytes ? m : max), {
      at: 0,
      label: '',
      rssBytes: 0,
      shmemBytes: 0,
      byCommand: {} as Record<string, number>,
    });
  }

  /** The highest RSS sample of each label (test), highest first. */
  peaksByLabel(): Array<[string, number]> {
    const peaks = new Map<string, number>();
    for (const m of this.memory) peaks.set(m.label, Math.max(peaks.get(m.label) ?? 0, m.rssBytes));
    return [...peaks].sort((a, b) => b[1] - a[1]);
  }
}
