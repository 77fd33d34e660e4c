/**
 * Tenant isolation benchmark: does one hostile tenant slow another one down?
 *
 * The service runs as `npm start` does, in a process of its own, on an embedded PostgreSQL.
 * Tenant B validates a small invoice (POST /api/validate/json, 3 lines) open loop at RATE/s
 * (Poisson arrivals, see openLoop.ts) for DURATION seconds, twice:
 *   1. quiet:   tenant A does nothing;
 *   2. hostile: tenant A runs LOOPS concurrent closed loops, each sending the next input of a
 *               rotation of the heaviest lawful and unlawful inputs as soon as the previous one
 *               is answered (a BIG_LINES-line document, a 5,000-line validation in JSON and UBL, a
 *               2,000-line PDF rendering, XML and JSON shapes refused by limits, a PDF FlateDecode
 *               bomb).
 * Reported for B, per phase: requests, p50/p90/p99/max latency and errors (non-2xx or network);
 * for A: per input, count, status histogram and latency; for the service: the highest total RSS
 * of its process and its children (work processes), sampled from /proc every 100 ms.
 * For each of A's inputs it also reports B's p99 over the B requests that overlapped one of its
 * requests in flight, which points at the input that hurts B most.
 * A's client runs in a worker thread, so building and reading its large bodies does not delay
 * B's load generator (which would be counted against the service).
 *   npm run bench:isolation   Options (env): DURATION (30 s), RATE (50), LOOPS (2), BIG_LINES (10000, the default MAX_DOCUMENT_LINES),
 *                             EXCLUDE (comma-separated words: A's inputs whose name contains one are left out, e.g. bomb),
 *                             SERVICE_NODE_ARGS (flags for the service's node)
 */
import { readFile, readdir, rm } from 'node:fs/promises';
import zlib from 'node:zlib';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { startBenchPostgres } from './benchPostgres.js';
import { invoiceWithLines } from './benchDocuments.js';
import { openLoop, percentile } from './openLoop.js';
import { startBenchService } from './benchService.js';

const duration = Number(process.env.DURATION ?? 30);
const rate = Number(process.env.RATE ?? 50);
const loops = Number(process.env.LOOPS ?? 2);
// The largest document A may create: MAX_DOCUMENT_LINES (default 10,000). With BIG_LINES above it,
// the service is started with MAX_DOCUMENT_LINES raised to match.
const bigLines = Number(process.env.BIG_LINES ?? 10_000);

/** Wall-clock milliseconds with sub-millisecond precision, comparable across threads. */
const now = () => performance.timeOrigin + performance.now();
const ms = (v: number) => (Number.isFinite(v) ? Math.round(v * 10) / 10 : NaN);

// ---------------------------------------------------------------------------------------------
// Tenant A (worker thread)

interface HostileInput {
  kind: string;
  method: string;
  path: string;
  contentType?: string;
  /** A JSON body with ${SEQ} where a per-request number goes (so documents get distinct numbers). */
  template?: [string, string];
  body?: Uint8Array;
  multipart?: boolean;
}

interface KindResult {
  count: number;
  statuses: Record<string, number>;
  latencies: number[];
  /** [start, end] wall-clock ms of each request. */
  intervals: [number, number][];
}

async function tenantA(): Promise<void> {
  const { base, key, inputs } = workerData as { base: string; key: string; inputs: HostileInput[] };
  const results: Record<string, KindResult> = {};
  /** The start of the first answer per input and status. */
  const samples: Record<string, string> = {};
  let stop = false;
  let seq = 0;
  parentPort!.on('message', (m) => {
    if (m === 'stop') stop = true;
  });
  const loop = async (offset: number) => {
    for (let i = offset; !stop; i++) {
      const input = inputs[i % inputs.length]!;
      const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
      let body: BodyInit | undefined;
      if (input.template) {
        body = `${input.template[0]}${++seq}${input.template[1]}`;
        headers['Content-Type'] = 'application/json';
      } else if (input.multipart) {
        const form = new FormData();
        form.append(
          'file',
          new Blob([input.body! as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }),
          'bomb.pdf',
        );
        body = form;
      } else if (input.body) {
        body = input.body as Uint8Array<ArrayBuffer>;
        headers['Content-Type'] = input.contentType!;
      }
      const started = now();
      let status: string;
      try {
        const response = await fetch(`${base}${input.path}`, {
          method: input.method,
          headers,
          body,
          signal: AbortSignal.timeout(120_000),
        });
        const bytes = Buffer.from(await response.arrayBuffer());
        status = String(response.status);
        samples[`${input.kind}|${status}`] ??= bytes.subarray(0, 300).toString('latin1');
      } catch (error) {
        status = `network:${(error as Error).name}`;
      }
      const ended = now();
      const r = (results[input.kind] ??= { count: 0, statuses: {}, latencies: [], intervals: [] });
      r.count++;
      r.statuses[status] = (r.statuses[status] ?? 0) + 1;
      r.latencies.push(ended - started);
      r.intervals.push([started, ended]);
    }
  };
  parentPort!.postMessage('ready');
  await new Promise<void>((resolve) => parentPort!.once('message', () => resolve()));
  await Promise.all(Array.from({ length: loops }, (_, j) => loop(Math.floor((j * inputs.length) / loops))));
  parentPort!.postMessage({ results, samples });
}

// ---------------------------------------------------------------------------------------------
// Inputs

/** Inserts `note` (a cbc:Note, or anything) into a UBL invoice after its InvoiceTypeCode. */
function withNote(ubl: string, note: string): Uint8Array {
  const at = ubl.indexOf('</cbc:InvoiceTypeCode>');
  if (at < 0) throw new Error('no cbc:InvoiceTypeCode in the UBL');
  const end = at + '</cbc:InvoiceTypeCode>'.length;
  return Buffer.from(`${ubl.slice(0, end)}${note}${ubl.slice(end)}`, 'utf8');
}

/** Deflates `bytes` zero bytes, a chunk at a time (the whole never exists uncompressed). */
async function deflatedZeros(bytes: number): Promise<Buffer> {
  const deflate = zlib.createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const chunk = Buffer.alloc(16 * 1024 * 1024);
  for (let written = 0; written < bytes; written += chunk.length) {
    if (!deflate.write(chunk.subarray(0, Math.min(chunk.length, bytes - written))))
      await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/** A small, well-formed PDF whose pages' content streams inflate to `pages` × `perPage` bytes of NULs. */
async function pdfBomb(pages: number, perPage: number): Promise<Buffer> {
  const stream = await deflatedZeros(perPage);
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (b: Buffer | string) => {
    const buffer = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buffer);
    length += buffer.length;
  };
  const object = (n: number, ...content: (Buffer | string)[]) => {
    offsets[n] = length;
    push(`${n} 0 obj\n`);
    for (const c of content) push(c);
    push('\nendobj\n');
  };
  push('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  const pageIds = Array.from({ length: pages }, (_, i) => 3 + i * 2);
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages} >>`);
  for (const id of pageIds) {
    object(id, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents ${id + 1} 0 R /Resources << >> >>`);
    object(id + 1, `<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, stream, '\nendstream');
  }
  const objects = 2 + pages * 2;
  const xref = length;
  push(`xref\n0 ${objects + 1}\n0000000000 65535 f \n`);
  for (let n = 1; n <= objects; n++) push(`${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${objects + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** A JSON template split where the per-request number goes. */
function template(value: Record<string, unknown>): [string, string] {
  const [before, after] = JSON.stringify({ ...value, invoice_id: '@@SEQ@@' }).split('@@SEQ@@') as [string, string];
  return [`${before}A-`, after];
}

// ---------------------------------------------------------------------------------------------
// Measurement helpers

/** Total RSS (kB) of a process and all its descendants. */
async function treeRssKb(root: number): Promise<number> {
  const parent = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (stat) parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p && hops < 64; p = parent.get(p), hops++)
      if (p === root) return true;
    return false;
  };
  let total = 0;
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  }
  return total;
}

interface PhaseResult {
  phase: string;
  requests: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  statuses: Record<string, number>;
  maxRssMb: number;
  /** Per B request, [start, end] wall-clock ms. */
  intervals: [number, number][];
  latencies: number[];
}

async function main() {
  const { dataDir, server: pg } = await startBenchPostgres('bench-isolation', ['bench']);
  const operatorKey = 'op_bench_isolation_key';
  const port = 19_000 + Math.floor(Math.random() * 1000);
  const running = await startBenchService({
    databaseUrl: pg.connectionString('bench'),
    dataDir,
    port,
    operatorKey,
    env: { JSON_BODY_LIMIT: '8388608', MAX_DOCUMENT_LINES: String(Math.max(10_000, bigLines)) },
  });
  const service = running.process;
  const base = running.base;
  const call = async (method: string, route: string, key: string, payload?: unknown) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: payload ? JSON.stringify(payload) : undefined,
    });
    const body = (await response.json()) as Record<string, any>;
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(body).slice(0, 500)}`);
    return body;
  };

  const org = await call('POST', '/api/operator/organizations', operatorKey, { name: 'bench-isolation' });
  const adminKey = org.admin_key.key as string;
  const tenantKey = async (name: string) => {
    const tenant = await call('POST', '/api/admin/tenants', adminKey, { name });
    return (await call('POST', `/api/admin/tenants/${tenant.id}/api-keys`, adminKey, { name })).key as string;
  };
  const keyA = await tenantKey('tenant-a');
  const keyB = await tenantKey('tenant-b');

  process.stdout.write('preparing inputs…\n');
  const small = JSON.stringify(invoiceWithLines(3));
  const smallCheck = await call('POST', '/api/validate/json', keyB, JSON.parse(small));
  if (!smallCheck.ubl_document)
    throw new Error(`the small invoice is not valid: ${JSON.stringify(smallCheck).slice(0, 500)}`);
  const smallUbl = smallCheck.ubl_document as string;
  const mid = invoiceWithLines(5000);
  const midUbl = (await call('POST', '/api/validate/json', keyA, mid)).ubl_document as string;
  if (!midUbl) throw new Error('the 5,000-line invoice is not valid');
  const pdfDocument = (
    await call('POST', '/api/documents', keyA, { ...invoiceWithLines(2000), invoice_id: 'A-PDF-2000' })
  ).id as string;
  const bomb = await pdfBomb(4, 384 * 1024 * 1024);
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const inputs: HostileInput[] = [
    {
      kind: `POST /api/documents ${bigLines.toLocaleString('en')} lines`,
      method: 'POST',
      path: '/api/documents',
      template: template(invoiceWithLines(bigLines)),
    },
    {
      kind: 'POST /api/validate/json 5,000 lines',
      method: 'POST',
      path: '/api/validate/json',
      template: template(mid),
    },
    {
      kind: 'POST /api/validate/ubl 5,000 lines',
      method: 'POST',
      path: '/api/validate/ubl',
      contentType: 'application/xml',
      body: Buffer.from(midUbl, 'utf8'),
    },
    { kind: 'GET /api/documents/{id}/pdf 2,000 lines', method: 'GET', path: `/api/documents/${pdfDocument}/pdf` },
    {
      kind: 'UBL 1,000,000 <x/> in cbc:Note',
      method: 'POST',
      path: '/api/validate/ubl',
      contentType: 'application/xml',
      body: withNote(smallUbl, `<cbc:Note>${'<x/>'.repeat(1_000_000)}</cbc:Note>`),
    },
    {
      kind: 'UBL element with 100,000 attributes',
      method: 'POST',
      path: '/api/validate/ubl',
      contentType: 'application/xml',
      body: withNote(
        smallUbl,
        `<cbc:Note ${Array.from({ length: 100_000 }, (_, i) => `a${i}=""`).join(' ')}>x</cbc:Note>`,
      ),
    },
    {
      kind: 'UBL nesting 100,000 deep',
      method: 'POST',
      path: '/api/validate/ubl',
      contentType: 'application/xml',
      body: withNote(smallUbl, `<cbc:Note>${'<x>'.repeat(100_000)}${'</x>'.repeat(100_000)}</cbc:Note>`),
    },
    {
      kind: 'POST /api/documents 1 MB invoice_id',
      method: 'POST',
      path: '/api/documents',
      contentType: 'application/json',
      body: Buffer.from(JSON.stringify({ ...invoiceWithLines(3), invoice_id: 'X'.repeat(1024 * 1024) })),
    },
    {
      kind: 'POST /api/validate/json JSON 100,000 deep',
      method: 'POST',
      path: '/api/validate/json',
      contentType: 'application/json',
      body: Buffer.from(`{"invoice_id":"DEEP","items":${nested(100_000)}}`),
    },
    {
      kind: `POST /api/documents/pdf FlateDecode bomb (${(bomb.length / 1024).toFixed(0)} kB → 1.5 GB)`,
      method: 'POST',
      path: '/api/documents/pdf',
      body: bomb,
      multipart: true,
    },
  ];
  // EXCLUDE=bomb leaves out the inputs whose kind contains any of the (comma-separated) words.
  const exclude = (process.env.EXCLUDE ?? '')
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  if (exclude.length > 0)
    inputs.splice(0, inputs.length, ...inputs.filter((input) => !exclude.some((w) => input.kind.includes(w))));
  for (const input of inputs) {
    const size = input.template ? input.template[0].length + input.template[1].length : (input.body?.length ?? 0);
    process.stdout.write(`  ${input.kind}: ${(size / 1024 / 1024).toFixed(2)} MB\n`);
  }

  // RSS of the service and its work processes, sampled throughout.
  let rssMaxKb = 0;
  let rssOverallKb = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const rss = await treeRssKb(service.pid!);
      rssMaxKb = Math.max(rssMaxKb, rss);
      rssOverallKb = Math.max(rssOverallKb, rss);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();

  const count = Math.round(duration * rate);
  const runB = async (phase: string, seed: number): Promise<PhaseResult> => {
    rssMaxKb = 0;
    const starts = new Array<number>(count);
    const result = await openLoop({
      base,
      rate,
      count,
      connections: 64,
      seed,
      request: (i) => {
        starts[i] = now();
        return {
          method: 'POST',
          path: '/api/validate/json',
          headers: { Authorization: `Bearer ${keyB}`, 'Content-Type': 'application/json' },
          body: small,
        };
      },
    });
    const sorted = [...result.latencies].sort((a, b) => a - b);
    const ok = Object.entries(result.statusCounts).reduce(
      (n, [s, c]) => n + (Number(s) >= 200 && Number(s) < 300 ? c : 0),
      0,
    );
    return {
      phase,
      requests: count,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1]!,
      errors: count - ok,
      statuses: { ...result.statusCounts, ...result.errorCodes },
      maxRssMb: rssMaxKb / 1024,
      intervals: starts.map((s, i) => [s, s + result.latencies[i]!]),
      latencies: result.latencies,
    };
  };

  process.stdout.write(`phase 1: B at ${rate}/s for ${duration} s, A quiet…\n`);
  const quiet = await runB('quiet', 1);

  process.stdout.write(`phase 2: B at ${rate}/s for ${duration} s, A hostile (${loops} loops)…\n`);
  const worker = new Worker(new URL(import.meta.url), { workerData: { base, key: keyA, inputs } });
  await new Promise((resolve) => worker.once('message', resolve));
  const aDone = new Promise<{ results: Record<string, KindResult>; samples: Record<string, string> }>(
    (resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    },
  );
  worker.postMessage('go');
  const hostile = await runB('hostile', 2);
  const bEnded = now();
  worker.postMessage('stop');
  const { results: a, samples } = await aDone;
  const aDrainMs = now() - bEnded;
  await worker.terminate();
  sampling = false;
  await sampler;

  // Phase tables.
  const rows = [quiet, hostile];
  console.log('\n### Tenant B: POST /api/validate/json (3 lines), open loop at %d/s for %d s\n', rate, duration);
  console.log(
    '| phase | requests | p50 ms | p90 ms | p99 ms | max ms | errors | statuses | max service RSS (MB, incl. workers) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.phase} | ${r.requests} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.errors} | ${JSON.stringify(r.statuses)} | ${r.maxRssMb.toFixed(0)} |`,
    );
  }
  console.log(
    `\n### Tenant A: ${loops} closed loops during phase 2 (last answers ${(aDrainMs / 1000).toFixed(1)} s after B's end)\n`,
  );
  console.log('| input | count | statuses | A p50 ms | A max ms | B p99 ms while in flight (B requests overlapping) |');
  console.log('|---|---:|---|---:|---:|---:|');
  for (const input of inputs) {
    const r = a[input.kind];
    if (!r) {
      console.log(`| ${input.kind} | 0 | | | | |`);
      continue;
    }
    const sorted = [...r.latencies].sort((x, y) => x - y);
    const overlapping = hostile.intervals
      .flatMap(([s, e], i) => (r.intervals.some(([as, ae]) => s < ae && e > as) ? [hostile.latencies[i]!] : []))
      .sort((x, y) => x - y);
    console.log(
      `| ${input.kind} | ${r.count} | ${Object.entries(r.statuses)
        .map(([s, c]) => `${s}×${c}`)
        .join(
          ' ',
        )} | ${ms(percentile(sorted, 50))} | ${ms(sorted[sorted.length - 1]!)} | ${ms(percentile(overlapping, 99))} (${overlapping.length}) |`,
    );
  }
  console.log("\nA's first answer per input and status (start of body):");
  for (const [k, v] of Object.entries(samples)) console.log(`  ${k}: ${v.replace(/[^\x20-\x7e]/g, '.').slice(0, 300)}`);
  const target = hostile.p99 < 100 && hostile.errors === 0;
  console.log(
    `\nTarget (B p99 < 100 ms and no errors while A is hostile): ${target ? 'met' : 'NOT met'} (p99 ${ms(hostile.p99)} ms, ${hostile.errors} errors)`,
  );
  console.log(
    `Max service RSS (service + work processes) from phase 1 to A's last answer: ${(rssOverallKb / 1024).toFixed(0)} MB`,
  );
  console.log(`A's requests in all: ${Object.values(a).reduce((n, r) => n + r.count, 0)}`);

  await running.stop();
  await pg.stop();
  await rm(dataDir, { recursive: true, force: true });
}

if (isMainThread) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  tenantA().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
