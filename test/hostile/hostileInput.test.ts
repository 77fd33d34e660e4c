import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startServiceProcess, type ServiceProcess } from '../support/serviceProcess.js';
import { freePort } from '../support/postgres.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import {
  describeRequest,
  encodeSegment,
  errorShapeProblem,
  errorText,
  send,
  Watchdog,
  wtf8,
  type HostileRequest,
  type HostileResponse,
} from '../support/hostileHttp.js';
import { flateBombPdf } from '../support/pdfBomb.js';

/**
 * Hostile input against the real service process (`node dist/src/main.js`, its own embedded
 * PostgreSQL, its worker processes): generated and hand-made malicious requests on every route.
 * What must hold: nothing answers a 5xx, every 4xx has the spec's error shape, a bystander
 * tenant keeps being served, and the service's processes stay under 1 GiB (its embedded
 * PostgreSQL's memory is reported, not counted: it is the database server).
 *
 * Generated cases are seeded (HOSTILE_SEED, default below), so a failure replays. Violations are
 * collected per test and listed all at once, request and answer, rather than stopping (and
 * shrinking, which would mean thousands more slow requests) at the first.
 */
const SEED = Number(process.env.HOSTILE_SEED ?? 20260401);
const MiB = 1024 * 1024;
const fixtures = realisticDocuments();
const invoice = (i = 0) => structuredClone(fixtures[i]!.body) as Record<string, unknown>;
const ONE_MB = 'A'.repeat(MiB);

describe('Hostile input (real service process)', function () {
  this.timeout(600_000);
  const operatorKey = `op_hostile_${randomBytes(12).toString('hex')}`;
  let dataDir: string;
  let service: ServiceProcess;
  let base: string;
  let orgKey: string;
  let tenantA: { id: string; key: string; keyId: string };
  let tenantB: { id: string; key: string };
  /** A tenant the admin-route properties may change or delete. */
  let tenantC: { id: string; keyId: string };
  let watchdog: Watchdog;
  /** A draft of tenant A that path-id properties may hit (and send, or delete). */
  const draftIds: string[] = [];
  /** A valid UBL of fixture 0 with a note whose text is NOTE-SLOT and invoice number HOSTILE-TEMPLATE. */
  let ubl: string;
  let webhookId: string | null = null;

  const call = (req: HostileRequest) => send(base, req);
  const asA = (req: Omit<HostileRequest, 'key'>): HostileRequest => ({ key: tenantA.key, ...req });
  const asOrg = (req: Omit<HostileRequest, 'key'>): HostileRequest => ({ key: orgKey, ...req });
  /** A UBL with a fresh invoice number (documents created from UBL may be refused as duplicates). */
  const freshUbl = (note = 'NOTE-SLOT') =>
    ubl.replace('HOSTILE-TEMPLATE', `HOSTILE-${randomBytes(6).toString('hex')}`).replace('NOTE-SLOT', () => note);
  /** How many documents tenant A has (to check that a refused request recorded nothing). */
  const documentCount = async () => {
    const res = await call(asA({ method: 'GET', path: '/api/documents?limit=1' }));
    expect(res.status).to.equal(200);
    return (res.body as { total: number }).total;
  };

  before(async function () {
    this.timeout(180_000);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'invoicing-hostile-'));
    service = await startServiceProcess(
      {
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(await freePort()),
        OPERATOR_KEY: operatorKey,
        // HOSTILE_LOG_LEVEL and HOSTILE_LOG_FILE keep the service's log, to look into a failure.
        LOG_LEVEL: process.env.HOSTILE_LOG_LEVEL ?? 'silent',
        // Rate limits are not under test, and the generated cases send thousands of requests.
        RATE_LIMIT_STANDARD_PER_MINUTE: '0',
        RATE_LIMIT_PREMIUM_PER_MINUTE: '0',
        RATE_LIMIT_ADMIN_PER_MINUTE: '0',
        RATE_LIMIT_ADMIN_PER_HOUR: '0',
        // The 28,000-line invoice is a little over the 2 MB default, and over the 10,000 lines a
        // document may have by default: an operator may raise both, and the service must hold.
        JSON_BODY_LIMIT: String(8 * MiB),
        MAX_DOCUMENT_LINES: '50000',
        // Lookups must fail fast instead of asking the real Peppol SML: a DNS server that is not there.
        SML_DNS_SERVER: '127.0.0.1:1',
        PEPPOL_LOOKUP_TIMEOUT_MS: '1000',
      },
      await freePort(),
      150_000,
    );
    base = service.baseUrl;
    const org = await send(base, {
      method: 'POST',
      path: '/api/operator/organizations',
      key: operatorKey,
      json: { name: 'Hostile reseller' },
    });
    expect(org.status, org.text).to.equal(201);
    orgKey = (org.body as { admin_key: { key: string } }).admin_key.key;
    const tenant = async (name: string) => {
      const t = await call(asOrg({ method: 'POST', path: '/api/admin/tenants', json: { name } }));
      expect(t.status, t.text).to.equal(201);
      const id = (t.body as { id: string }).id;
      const k = await call(asOrg({ method: 'POST', path: `/api/admin/tenants/${id}/api-keys`, json: { name: 'app' } }));
      expect(k.status, k.text).to.equal(201);
      return { id, key: (k.body as { key: string }).key, keyId: (k.body as { id: string }).id };
    };
    tenantA = await tenant('hostile-a');
    tenantB = await tenant('hostile-b');
    tenantC = await tenant('hostile-c');

    watchdog = new Watchdog(base, tenantB.key, service.child.pid!);
    watchdog.start();

    const valid = await call(
      asA({
        method: 'POST',
        path: '/api/validate/json',
        json: { ...invoice(), invoice_id: 'HOSTILE-TEMPLATE', note: 'NOTE-SLOT' },
      }),
    );
    expect(valid.status, valid.text).to.equal(200);
    expect((valid.body as { is_valid: boolean }).is_valid, valid.text).to.equal(true);
    ubl = (valid.body as { ubl_document: string }).ubl_document;
    expect(ubl).to.include('NOTE-SLOT').and.to.include('HOSTILE-TEMPLATE');

    for (let i = 0; i < 3; i++) {
      const draft = await call(
        asA({ method: 'POST', path: '/api/documents', json: { ...invoice(), invoice_id: `HOSTILE-DRAFT-${i}` } }),
      );
      expect(draft.status, draft.text).to.equal(200);
      draftIds.push((draft.body as { id: string }).id);
    }
    // A subscription to hit by id; a public host, so that it is accepted (nothing is delivered:
    // .invalid never resolves).
    const hook = await call(
      asA({ method: 'POST', path: '/api/webhooks', json: { url: 'https://hooks.example.invalid/x', events: ['*'] } }),
    );
    if (hook.status === 201) webhookId = (hook.body as { id: string }).id;
  });

  beforeEach(function () {
    if (watchdog) watchdog.label = this.currentTest?.title ?? '';
  });

  after(async function () {
    this.timeout(60_000);
    await watchdog?.stop();
    if (service && process.env.HOSTILE_LOG_FILE) writeFileSync(process.env.HOSTILE_LOG_FILE, service.output());
    if (service) {
      service.child.kill('SIGTERM');
      const stopped = await Promise.race([
        service.exited.then(() => true),
        new Promise((r) => setTimeout(() => r(false), 30_000)),
      ]);
      if (!stopped) service.child.kill('SIGKILL');
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  // ---------------------------------------------------------------------------------------------
  // Generated inputs
  // ---------------------------------------------------------------------------------------------

  /** What a generated request broke: recorded, and listed at the end of its test. */
  interface Violation {
    request: string;
    status: number | string;
    answer: string;
  }

  /** Checks one answer against the properties every answer must have. */
  function violationOf(req: HostileRequest, res: HostileResponse | Error): Violation | null {
    if (res instanceof Error) return { request: describeRequest(req), status: `no answer: ${res.message}`, answer: '' };
    const answer = res.text.slice(0, 300);
    if (res.status >= 500) return { request: describeRequest(req), status: res.status, answer };
    if (res.status >= 400) {
      const problem = errorShapeProblem(res);
      if (problem) return { request: describeRequest(req), status: res.status, answer: `bad error shape: ${problem}` };
    }
    // An external entity must never be resolved into anything the service answers.
    if (/root:x?:0:0:/.test(res.text))
      return { request: describeRequest(req), status: res.status, answer: `leaks /etc/passwd: ${answer}` };
    return null;
  }

  /**
   * Runs `numRuns` generated requests (sequentially: the service shares 2 cores with others) and
   * fails listing every violation, grouped by status and answer.
   */
  async function property<T>(
    name: string,
    seedOffset: number,
    numRuns: number,
    arb: fc.Arbitrary<T>,
    toRequest: (value: T) => HostileRequest,
  ): Promise<void> {
    const violations: Violation[] = [];
    const statuses = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(arb, async (value) => {
        const req = toRequest(value);
        const res = await call(req).catch((error: Error) => error);
        const key = res instanceof Error ? 'error' : String(res.status);
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        const violation = violationOf(req, res);
        if (violation) violations.push(violation);
        return true;
      }),
      { seed: SEED + seedOffset, numRuns, endOnFailure: true },
    );
    console.log(
      `      ${name}: ${numRuns} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    if (violations.length > 0) {
      const groups = new Map<string, Violation[]>();
      for (const v of violations) {
        const group = `${v.status} ${v.answer.replace(/[0-9a-f]{8}-[0-9a-f-]{27}|\d+/g, '#').slice(0, 160)}`;
        groups.set(group, [...(groups.get(group) ?? []), v]);
      }
      const report = [...groups]
        .map(([group, vs]) => `  ${vs.length}× ${group}\n    e.g. ${vs[0]!.request}\n    answer: ${vs[0]!.answer}`)
        .join('\n');
      expect.fail(
        `${name}: ${violations.length} of ${numRuns} requests broke the rules (seed ${SEED + seedOffset}):\n${report}`,
      );
    }
  }

  // --- Arbitraries ---

  /** Single characters that have broken parsers, databases and XML writers before. */
  const nastyChar = fc.oneof(
    fc.constantFrom(
      '\u0000',
      '\uD800',
      '\uDFFF',
      '\uDBFF',
      '\uFFFE',
      '\uFFFF',
      '\u0001',
      '\u001B',
      '\u202E',
      '\u00A0',
      '\u2028',
      '\uFEFF',
    ),
    fc.constantFrom(
      '%',
      '/',
      '\\',
      '.',
      '?',
      '#',
      '&',
      '=',
      '+',
      ';',
      '<',
      '>',
      '"',
      "'",
      '`',
      '$',
      '{',
      '}',
      '\n',
      '\r',
      '\t',
      ' ',
    ),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
  );
  const nastyString = fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit: nastyChar, maxLength: 40 }) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '',
        ' ',
        '__proto__',
        'constructor',
        'toString',
        'valueOf',
        'hasOwnProperty',
        'NaN',
        'Infinity',
        '-1',
        '1e309',
        '0x1F',
        'null',
        'true',
        '[object Object]',
        '../../etc/passwd',
        "'; DROP TABLE events; --",
        '${jndi:ldap://x}',
        '{{7*7}}',
        '%s%n',
        '0208:0403013026',
        'BE0403013026',
        '2025-02-30',
        '9999-12-31',
        '-0001-01-01',
      ),
    },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        ONE_MB,
        '\u0000'.repeat(1000),
        'x'.repeat(10_001),
        '\uD800'.repeat(5000),
        '9'.repeat(400),
      ),
    },
  );
  /** JSON values as a hostile client writes them: own `__proto__` keys (JSON.parse makes them own properties), deep arrays. */
  const protoObject = fc
    .tuple(
      fc.constantFrom('__proto__', 'constructor', 'toString', 'prototype', 'hasOwnProperty'),
      fc.jsonValue({ maxDepth: 2 }),
    )
    .map(([key, value]) => JSON.parse(`{${JSON.stringify(key)}: ${JSON.stringify(value) ?? 'null'}}`) as unknown);
  const deep = (n: number): unknown => JSON.parse('['.repeat(n) + ']'.repeat(n));
  const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
    { weight: 5, arbitrary: nastyString },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(0, -0, 1e308, -1e308, 2 ** 53 + 1, 0.1 + 0.2, 1e-7, -1),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: protoObject },
    // Deeper nesting is sent as raw text (brokenJson): fast-check itself recurses into generated values.
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        deep(40),
        { a: deep(100) },
        Array.from({ length: 10_000 }, () => 0),
      ),
    },
  );

  /** Every path to a value inside a JSON value (objects and arrays included). */
  const pathsOf = (value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> => {
    if (value === null || typeof value !== 'object') return [prefix];
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
    return [prefix, ...entries.flatMap(([k, v]) => pathsOf(v, [...prefix, k]))];
  };
  const setAt = (
    root: unknown,
    at: Array<string | number>,
    value: unknown,
    mode: 'replace' | 'delete' | 'addKey',
    key: string,
  ): unknown => {
    if (at.length === 0) return mode === 'replace' ? value : root;
    let parent = root as Record<string | number, unknown>;
    for (const part of at.slice(0, -1)) parent = parent[part] as Record<string | number, unknown>;
    const last = at[at.length - 1]!;
    if (mode === 'replace') parent[last] = value;
    else if (mode === 'delete') delete parent[last];
    else {
      const target = parent[last];
      // defineProperty: `__proto__` as an own key, as JSON.parse makes it, not the prototype setter.
      // (An array's `length` cannot be redefined: that mutation is skipped.)
      if (target && typeof target === 'object' && !(Array.isArray(target) && key === 'length'))
        Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
    }
    return root;
  };
  /** A valid invoice with one field replaced, removed, or given a hostile extra key. */
  const mutatedInvoice = fc
    .record({
      fixture: fc.nat({ max: fixtures.length - 1 }),
      pick: fc.nat(),
      mode: fc.constantFrom('replace', 'replace', 'replace', 'delete', 'addKey') as fc.Arbitrary<
        'replace' | 'delete' | 'addKey'
      >,
      key: fc.oneof(
        fc.constantFrom('__proto__', 'constructor', 'toString', 'state', 'direction', 'id', 'tenant_id'),
        nastyString,
      ),
      value: nastyValue,
    })
    .map(({ fixture, pick, mode, key, value }) => {
      const body = invoice(fixture);
      const paths = pathsOf(body);
      return setAt(body, paths[pick % paths.length]!, value, mode, key);
    });
  const anyJsonBody = fc.oneof(
    { weight: 5, arbitrary: mutatedInvoice },
    { weight: 2, arbitrary: fc.jsonValue() },
    {
      weight: 1,
      arbitrary: fc
        .anything({ withNullPrototype: true, withObjectString: true, maxDepth: 3 })
        .map((v) => JSON.parse(JSON.stringify(v) ?? 'null') as unknown),
    },
    { weight: 1, arbitrary: nastyValue },
  );
  /** Bodies that are not JSON, declared as JSON. */
  const brokenJson = fc
    .oneof(
      fc.tuple(fc.nat(), fc.constant(JSON.stringify(invoice()))).map(([n, text]) => text.slice(0, n % text.length)),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.constantFrom(
        '{"a":1,"a":2}',
        '{"items":[',
        '\u0000',
        '{"__proto__":{"polluted":1}}',
        '{"x": 1e999999}',
        '['.repeat(100_000),
        '{"a":"\\ud800"}',
        'null',
        '""',
        '1',
        `{"items":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      ),
    )
    .map((text) => wtf8(text));
  const invalidUtf8 = fc
    .uint8Array({ maxLength: 300 })
    .map((bytes) => Buffer.concat([Buffer.from('{"invoice_id":"'), Buffer.from(bytes), Buffer.from('"}')]));

  /** A JSON request body: a JSON value, or broken bytes with a JSON content type. */
  const jsonRequestBody = fc.oneof(
    {
      weight: 8,
      arbitrary: anyJsonBody.map((json) => ({ json }) as Pick<HostileRequest, 'json' | 'raw' | 'contentType'>),
    },
    { weight: 1, arbitrary: brokenJson.map((raw) => ({ raw, contentType: 'application/json' })) },
    { weight: 1, arbitrary: invalidUtf8.map((raw) => ({ raw, contentType: 'application/json; charset=utf-8' })) },
  );

  /** Document ids as a client could send them: real ones, uuids, and junk (encoded, or raw malformed escapes). */
  const pathId = (real: () => string[]) =>
    fc.oneof(
      {
        weight: 2,
        arbitrary: fc
          .constant(null)
          .map(() => real())
          .chain((ids) => (ids.length ? fc.constantFrom(...ids) : fc.uuid())),
      },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 4, arbitrary: nastyString.filter((s) => s.length < 20_000).map(encodeSegment) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '%',
          '%zz',
          '%C3%28',
          '%ED%A0%80',
          '%00',
          '%2e%2e',
          '..',
          '%2F..%2F..%2Fetc%2Fpasswd',
          '%uD800',
          '%FF%FE',
          'a%',
          encodeSegment('x'.repeat(100_000)),
        ),
      },
    );
  const docIds = pathId(() => draftIds);

  /** A query string: known parameter names and random ones, hostile values, repeated keys. */
  const queryString = (names: string[]) =>
    fc
      .array(
        fc.tuple(
          fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...names) },
            { weight: 1, arbitrary: nastyString.filter((s) => s.length < 100) },
          ),
          fc.oneof(
            { weight: 3, arbitrary: nastyString.filter((s) => s.length < 20_000) },
            {
              weight: 2,
              arbitrary: fc.constantFrom(
                '0',
                '1',
                '-1',
                '100',
                '101',
                '1000',
                '1001',
                '1e3',
                '99999999999999999999',
                'NaN',
                '',
                'true',
                'asc',
                'desc',
                'DRAFT',
                'INVOICE',
                '2025-01-01',
                '2025-13-45T99:99',
                'invoice_total',
                'created_at',
              ),
            },
          ),
          fc.boolean(),
        ),
        { maxLength: 6 },
      )
      .map((pairs) => {
        const parts = pairs.map(([k, v, raw]) =>
          raw && !/[\uD800-\uDFFF]/.test(v)
            ? `${encodeSegment(k)}=${v.replace(/[#\s]/g, '')}`
            : `${encodeSegment(k)}=${encodeSegment(v)}`,
        );
        // Now and then a malformed escape, or a parameter given as an array or an object (qs style).
        return parts.length ? `?${parts.join('&')}` : '';
      });
  const LIST_PARAMS = [
    'page',
    'page_size',
    'type',
    'state',
    'receiver',
    'sender',
    'date_from',
    'date_to',
    'search',
    'sort_by',
    'sort_order',
    'page[]',
    'state[]',
    'search[a]',
  ];

  // --- XML ---

  const xmlName = fc.oneof(
    fc.constantFrom(
      'Invoice',
      'CreditNote',
      'cbc:ID',
      'cbc:IssueDate',
      'cac:AccountingSupplierParty',
      'cac:InvoiceLine',
      'cbc:Note',
      'x',
      'ext:UBLExtensions',
      'xsl:stylesheet',
    ),
    fc.stringMatching(/^[A-Za-z_][A-Za-z0-9._-]{0,12}$/),
  );
  const escapeXml = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  interface XmlNode {
    name: string;
    attrs: Array<[string, string]>;
    children: Array<XmlNode | string>;
  }
  const { node: xmlTree } = fc.letrec<{ node: XmlNode }>((tie) => ({
    node: fc.record({
      name: xmlName,
      attrs: fc.array(
        fc.tuple(
          xmlName,
          nastyString.filter((s) => s.length < 1000),
        ),
        { maxLength: 3 },
      ),
      // Text first: past maxDepth, oneof takes its first arbitrary, so the trees stay finite.
      children: fc.array(
        fc.oneof(
          { maxDepth: 6, depthIdentifier: 'xml' },
          nastyString.filter((s) => s.length < 1000),
          tie('node'),
        ),
        { maxLength: 4 },
      ),
    }),
  }));
  const UBL_NS = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
  const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
  const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
  const serialize = (n: XmlNode, escape: boolean, root = false): string => {
    const ns = root ? ` xmlns="${UBL_NS}" xmlns:cac="${CAC}" xmlns:cbc="${CBC}"` : '';
    const attrs = n.attrs.map(([k, v]) => ` ${k}="${escape ? escapeXml(v) : v}"`).join('');
    const inner = n.children
      .map((c) => (typeof c === 'string' ? (escape ? escapeXml(c) : c) : serialize(c, escape)))
      .join('');
    return `<${n.name}${ns}${attrs}>${inner}</${n.name}>`;
  };
  const generatedXml = fc
    .tuple(
      xmlTree,
      fc.boolean(),
      fc.boolean(),
      fc.constantFrom(
        '',
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<?xml version="1.1"?>',
        '<?xml version="1.0" encoding="ISO-8859-1"?>',
        '<?xml version="1.0" encoding="UTF-16"?>',
        '<?xml version="1.0" encoding="bogus"?>',
      ),
    )
    .map(
      ([tree, escape, root, decl]) => `${decl}${serialize(root ? { ...tree, name: 'Invoice' } : tree, escape, true)}`,
    );
  /** Entity and DTD attacks: exponential expansion, external files, network, parameter entities. */
  const XML_ATTACKS = [
    `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;"><!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;"><!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;"><!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;"><!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;"><!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">]><Invoice xmlns="${UBL_NS}"><cbc:Note xmlns:cbc="${CBC}">&lol9;</cbc:Note></Invoice>`,
    `<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Invoice xmlns="${UBL_NS}"><cbc:Note xmlns:cbc="${CBC}">&xxe;</cbc:Note></Invoice>`,
    `<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "http://127.0.0.1:1/x">]><Invoice xmlns="${UBL_NS}">&xxe;</Invoice>`,
    `<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]><Invoice xmlns="${UBL_NS}"/>`,
    `<?xml version="1.0"?><!DOCTYPE Invoice SYSTEM "http://127.0.0.1:1/evil.dtd"><Invoice xmlns="${UBL_NS}"/>`,
    `<?xml version="1.0"?><Invoice xmlns="${UBL_NS}" xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="file:///etc/passwd" parse="text"/></Invoice>`,
    `<?xml version="1.0"?><!DOCTYPE a [<!ENTITY a "${'x'.repeat(100_000)}">]><a>${'&a;'.repeat(10_000)}</a>`,
    `<?xml version="1.0"?><?xml-stylesheet href="file:///etc/passwd"?><Invoice xmlns="${UBL_NS}"/>`,
    '<![CDATA[',
    '<a><b></a></b>',
    '\uFEFF\uFEFF<a/>',
    '',
  ];
  /** The valid UBL, then broken: cut short, a slice removed, junk inserted, the XXE entity put in. */
  const mutatedUbl = fc
    .record({
      how: fc.constantFrom('truncate', 'remove', 'insert', 'xxe', 'note'),
      at: fc.nat(),
      len: fc.nat({ max: 200 }),
      junk: nastyString.filter((s) => s.length < 2000),
    })
    .map(({ how, at, len, junk }) => {
      const text = freshUbl();
      const i = at % text.length;
      switch (how) {
        case 'truncate':
          return text.slice(0, i);
        case 'remove':
          return text.slice(0, i) + text.slice(i + len);
        case 'insert':
          return text.slice(0, i) + junk + text.slice(i);
        case 'xxe':
          return text
            .replace(
              /^(<\?xml[^>]*\?>)?/,
              (decl) => `${decl}<!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>`,
            )
            .replace('NOTE-SLOT', '&xxe;');
        default:
          return text.replace('NOTE-SLOT', () => escapeXml(junk));
      }
    });
  const xmlBytes = fc.oneof(
    { weight: 3, arbitrary: generatedXml.map(wtf8) },
    { weight: 4, arbitrary: mutatedUbl.map(wtf8) },
    { weight: 2, arbitrary: fc.constantFrom(...XML_ATTACKS).map((x) => Buffer.from(x)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 500 }).map((b) => Buffer.from(b)) },
  );
  /** An XML upload: raw body with an XML content type, or a multipart `file` with a hostile name. */
  const xmlUpload = fc
    .tuple(
      xmlBytes,
      fc.boolean(),
      fc.constantFrom(
        'application/xml',
        'text/xml',
        'application/ubl+xml',
        'application/xml; charset=utf-16',
        'application/xml; charset=bogus',
        'text/xml; charset=iso-8859-1',
      ),
      fc.oneof(
        fc.constantFrom('invoice.xml', ''),
        nastyString.filter((s) => s.length < 300),
      ),
    )
    .map(([data, raw, contentType, fileName]) =>
      raw
        ? { raw: data, contentType }
        : { file: { fileName: wtf8(fileName.replace(/["\r\n]/g, '')), contentType, data } },
    ) as fc.Arbitrary<Pick<HostileRequest, 'raw' | 'contentType' | 'file'>>;

  describe('generated inputs: no 5xx, and every 4xx in the spec error shape', () => {
    /** One `it` per route, so that every route is tried and reported even when another fails. */
    const generated = <T>(
      name: string,
      seedOffset: number,
      numRuns: number,
      arb: fc.Arbitrary<T>,
      toRequest: (value: T) => HostileRequest,
    ) => it(`${name} (${numRuns} cases)`, () => property(name, seedOffset, numRuns, arb, toRequest));
    const as = (who: 'A' | 'org', req: Omit<HostileRequest, 'key'>) => (who === 'A' ? asA(req) : asOrg(req));

    // --- JSON bodies ---
    generated(
      'POST /api/documents',
      1,
      300,
      fc.tuple(
        jsonRequestBody,
        fc.constantFrom(
          '',
          '?construct_pdf=false',
          '?construct_pdf=true',
          '?construct_pdf=%00',
          '?construct_pdf=1&construct_pdf=2',
        ),
      ),
      ([body, q]) => asA({ method: 'POST', path: `/api/documents${q}`, ...body }),
    );
    generated('POST /api/validate/json', 2, 300, jsonRequestBody, (body) =>
      asA({ method: 'POST', path: '/api/validate/json', ...body }),
    );

    const webhookBody = fc
      .oneof(
        fc.record({
          url: fc.oneof(
            nastyString,
            fc.constantFrom(
              'http://127.0.0.1:1/hook',
              'http://[::1]/',
              'http://169.254.169.254/latest/meta-data',
              'file:///etc/passwd',
              'javascript:alert(1)',
              'https://user:pw@example.invalid/',
              `https://example.invalid/${'a'.repeat(3000)}`,
              'http://0x7f000001/',
              'http://2130706433/',
            ),
          ),
          events: fc.oneof(fc.array(nastyString, { maxLength: 3 }), fc.constant(['*']), nastyValue),
          enabled: fc.oneof(fc.boolean(), nastyValue),
        }),
        anyJsonBody,
      )
      .map((json) => ({ json }));
    // [method, route ({} is the generated id), ids, who]
    const jsonRoutes: Array<[string, string, fc.Arbitrary<string>, 'A' | 'org']> = [
      ['POST', '/api/webhooks', fc.constant(''), 'A'],
      ['PUT', '/api/webhooks/{}', pathId(() => (webhookId ? [webhookId] : [])), 'A'],
      ['POST', '/api/inbox/{}/accept', docIds, 'A'],
      ['POST', '/api/inbox/{}/reject', docIds, 'A'],
      ['POST', '/api/admin/tenants', fc.constant(''), 'org'],
      ['PUT', '/api/admin/tenants/{}', pathId(() => [tenantC.id]), 'org'],
      ['POST', '/api/admin/tenants/{}/api-keys', pathId(() => [tenantC.id]), 'org'],
      ['PUT', '/api/admin/tenants/{tenantC}/api-keys/{}', pathId(() => [tenantC.keyId]), 'org'],
      ['POST', '/api/admin/tenants/{}/peppol/register', pathId(() => [tenantC.id]), 'org'],
      ['POST', '/api/admin/tenants/{}/peppol/business-card', pathId(() => [tenantC.id]), 'org'],
    ];
    jsonRoutes.forEach(([method, template, ids, who], i) => {
      const body = template.startsWith('/api/webhooks') ? webhookBody : jsonRequestBody;
      generated(`${method} ${template}`, 10 + i, 60, fc.tuple(ids, body), ([id, b]) =>
        as(who, { method, path: template.replace('{tenantC}', tenantC.id).replace('{}', id), ...b }),
      );
    });

    // --- XML uploads ---
    generated('POST /api/validate/ubl', 30, 300, xmlUpload, (upload) =>
      asA({ method: 'POST', path: '/api/validate/ubl', ...upload }),
    );
    generated('POST /api/documents/ubl', 31, 200, xmlUpload, (upload) =>
      asA({ method: 'POST', path: '/api/documents/ubl', ...upload }),
    );

    // --- Path ids ---
    const idRoutes: Array<[string, string, 'A' | 'org']> = [
      ['GET', '/api/documents/{}', 'A'],
      ['GET', '/api/documents/{}/ubl', 'A'],
      ['GET', '/api/documents/{}/ubl?format=xml', 'A'],
      ['POST', '/api/documents/{}/validate', 'A'],
      ['GET', '/api/documents/{}/attachments', 'A'],
      ['GET', '/api/documents/{}/attachments/{}', 'A'],
      ['GET', '/api/documents/{}/transmission-report', 'A'],
      ['GET', '/api/documents/{}/history', 'A'],
      ['GET', '/api/inbox/{}', 'A'],
      ['POST', '/api/inbox/{}/accept', 'A'],
      ['GET', '/api/webhooks/{}', 'A'],
      ['GET', '/api/webhooks/{}/deliveries', 'A'],
      ['DELETE', '/api/webhooks/{}', 'A'],
      ['GET', '/api/admin/tenants/{}', 'org'],
      ['GET', '/api/admin/tenants/{}/api-keys', 'org'],
      ['GET', '/api/admin/tenants/{}/api-keys/latest', 'org'],
      ['DELETE', '/api/admin/tenants/{}/api-keys/{}', 'org'],
      ['GET', '/api/admin/tenants/{}/peppol/status', 'org'],
      ['POST', '/api/admin/tenants/{}/peppol/unregister', 'org'],
      ['DELETE', '/api/admin/tenants/{}', 'org'],
      // Last: these may send or delete the real drafts the others use.
      ['POST', '/api/documents/{}/send', 'A'],
      ['DELETE', '/api/documents/{}', 'A'],
    ];
    idRoutes.forEach(([method, template, who], i) => {
      // Admin routes never get tenant A's or B's id: deleting the bystander would stop the watchdog.
      const ids = who === 'org' ? pathId(() => []) : docIds;
      generated(`${method} ${template}`, 40 + i, 50, fc.tuple(ids, ids), ([a, b]) =>
        as(who, { method, path: template.replace('{}', a).replace('{}', b) }),
      );
    });

    // --- Query strings ---
    const queryRoutes: Array<[string, string, string[], 'A' | 'org']> = [
      ['GET', '/api/outbox/', LIST_PARAMS, 'A'],
      ['GET', '/api/outbox/drafts', LIST_PARAMS, 'A'],
      ['GET', '/api/inbox/', LIST_PARAMS, 'A'],
      ['GET', '/api/inbox/invoices', LIST_PARAMS, 'A'],
      ['GET', '/api/inbox/credit-notes', LIST_PARAMS, 'A'],
      ['GET', '/api/documents', ['skip', 'limit', 'skip[]', 'limit[x]'], 'A'],
      ['GET', '/api/admin/tenants', ['skip', 'limit'], 'org'],
      ['GET', '/api/lookup', ['peppol_id'], 'A'],
      ['GET', '/api/validate/peppol-id', ['peppol_id'], 'A'],
      ['GET', '/api/lookup/participants', ['query', 'country_code'], 'A'],
      ['GET', '/api/documents/{draft}/ubl', ['format'], 'A'],
      ['GET', '/api/webhooks/{webhook}/deliveries', ['page', 'page_size'], 'A'],
      [
        'POST',
        '/api/documents/{draft}/send',
        ['sender_peppol_scheme', 'sender_peppol_id', 'receiver_peppol_scheme', 'receiver_peppol_id', 'email'],
        'A',
      ],
    ];
    queryRoutes.forEach(([method, template, names, who], i) => {
      // Lookups wait for the (absent) DNS server: fewer of them.
      const runs = /lookup|peppol-id/.test(template) ? 40 : 60;
      generated(`${method} ${template}?…`, 70 + i, runs, queryString(names), (q) =>
        as(who, {
          method,
          path: `${template.replace('{draft}', draftIds[0]!).replace('{webhook}', webhookId ?? 'none')}${q}`,
        }),
      );
    });

    // --- Multipart uploads ---
    const upload = fc.record({
      fileName: fc.oneof(
        fc.constantFrom('a.pdf', 'a.png', 'x.csv', '', '../../../etc/passwd', 'a.exe', 'a.pdf.exe'),
        nastyString.filter((s) => s.length < 300),
      ),
      contentType: fc.oneof(
        fc.constantFrom(
          'application/pdf',
          'image/png',
          'text/csv',
          'application/xml',
          'application/octet-stream',
          'text/html',
          '',
        ),
        nastyString.filter((s) => s.length < 100 && !/[\r\n]/.test(s)),
      ),
      data: fc.oneof(
        fc.uint8Array({ maxLength: 2000 }).map((b) => Buffer.from(b)),
        fc.constantFrom(
          Buffer.from('%PDF-1.4\n%%EOF'),
          Buffer.from('%PDF-1.7\n1 0 obj << /Length 99999999999 >> stream\n'),
          Buffer.alloc(0),
        ),
      ),
      field: fc.constantFrom('file', 'file', 'file', 'files', ''),
    });
    // The part header is written raw: quotes and line breaks would only end it early.
    const safeName = (s: string) => wtf8(s.replace(/["\r\n]/g, ''));
    generated('POST /api/documents/{id}/attachments', 90, 100, fc.tuple(docIds, upload), ([id, u]) =>
      asA({
        method: 'POST',
        path: `/api/documents/${id}/attachments`,
        file: { ...u, fileName: safeName(u.fileName), contentType: u.contentType || 'application/octet-stream' },
      }),
    );
    generated(
      'POST /api/documents/pdf',
      91,
      60,
      fc.tuple(queryString(['vendor_tax_id', 'customer_tax_id']), upload),
      ([q, u]) =>
        asA({
          method: 'POST',
          path: `/api/documents/pdf${q}`,
          file: { ...u, fileName: safeName(u.fileName), contentType: u.contentType || 'application/pdf' },
        }),
    );
  });

  // ---------------------------------------------------------------------------------------------
  // Named cases
  // ---------------------------------------------------------------------------------------------

  describe('named cases', () => {
    /** A 4xx with the spec's error shape (the message is returned for further checks). */
    const expectClientError = (res: HostileResponse, what: string, statuses?: number[]) => {
      expect(res.status, `${what}: ${res.status} ${res.text.slice(0, 300)}`).to.be.within(400, 499);
      if (statuses) expect(statuses, `${what}: ${res.status} ${res.text.slice(0, 300)}`).to.include(res.status);
      expect(errorShapeProblem(res), what).to.equal(null);
      return errorText(res);
    };
    /** validate/ubl may lawfully answer 200 with is_valid false for schema-invalid content; never 5xx. */
    const expectRefusedOrInvalid = (res: HostileResponse, what: string) => {
      if (res.status === 200)
        expect((res.body as { is_valid: boolean }).is_valid, `${what}: ${res.text.slice(0, 300)}`).to.equal(false);
      else expectClientError(res, what);
    };
    const xml = (text: string | Buffer, path = '/api/validate/ubl') =>
      call(asA({ method: 'POST', path, raw: text, contentType: 'application/xml' }));
    const xmlFile = (data: Buffer, path = '/api/validate/ubl') =>
      call(asA({ method: 'POST', path, file: { fileName: 'invoice.xml', contentType: 'application/xml', data } }));

    describe('XML size, breadth and depth', () => {
      const manyEmpty = '<x/>'.repeat(1_000_000);

      it('1,000,000 empty elements in cbc:Note (~4 MB): a 4xx, not a 5xx nor an exhausted process', async () => {
        const before = await documentCount();
        const text = freshUbl(manyEmpty);
        expect(text.length).to.be.greaterThan(4_000_000);
        expectRefusedOrInvalid(await xml(text), 'validate/ubl');
        expectClientError(await xml(freshUbl(manyEmpty), '/api/documents/ubl'), 'documents/ubl');
        expect(await documentCount()).to.equal(before);
      });

      it('1,000,000 empty elements in ext:UBLExtensions/ext:ExtensionContent: a 4xx (a limit) or accepted, never a 5xx', async () => {
        const EXT = 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2';
        // UBLExtensions is the first child of the root; ExtensionContent holds one foreign element.
        const text = freshUbl().replace(
          /(<Invoice[^>]*>)/,
          `$1<ext:UBLExtensions xmlns:ext="${EXT}"><ext:UBLExtension><ext:ExtensionContent><w xmlns="urn:hostile">${manyEmpty}</w></ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions>`,
        );
        expect(text).to.include('ext:UBLExtensions');
        for (const route of ['/api/validate/ubl', '/api/documents/ubl']) {
          const res = await xml(
            text.replace(/HOSTILE-[0-9a-f]{12}/, `HOSTILE-${randomBytes(6).toString('hex')}`),
            route,
          );
          expect(res.status, `${route}: ${res.text.slice(0, 300)}`).to.be.below(500);
          if (res.status >= 400) expectClientError(res, route);
        }
      });

      it('one element with 100,000 attributes: a 4xx (or an invalid result), never a 5xx', async () => {
        const attrs = Array.from({ length: 100_000 }, (_, i) => ` a${i}="${i}"`).join('');
        const text = freshUbl().replace(/<cbc:Note>/, `<cbc:Note${attrs}>`);
        expectRefusedOrInvalid(await xml(text), 'validate/ubl');
        expectClientError(
          await xml(
            text.replace(/HOSTILE-[0-9a-f]{12}/, `HOSTILE-${randomBytes(6).toString('hex')}`),
            '/api/documents/ubl',
          ),
          'documents/ubl',
        );
      });

      it('elements nested 100,000 deep: a 4xx, never a 5xx', async () => {
        const nested = '<x>'.repeat(100_000) + '</x>'.repeat(100_000);
        expectRefusedOrInvalid(await xml(freshUbl(nested)), 'validate/ubl (inside cbc:Note)');
        expectClientError(await xml(freshUbl(nested), '/api/documents/ubl'), 'documents/ubl (inside cbc:Note)');
        // And as the whole document.
        expectClientError(await xml(`<Invoice xmlns="${UBL_NS}">${nested}</Invoice>`), 'validate/ubl (whole document)');
      });
    });

    describe('XML encodings', () => {
      /** The same UBL in UTF-16 with a byte-order mark, the declaration saying so. */
      const utf16 = (text: string, endian: 'LE' | 'BE') => {
        const le = Buffer.concat([
          Buffer.from([0xff, 0xfe]),
          Buffer.from(text.replace(/encoding="UTF-8"/i, 'encoding="UTF-16"'), 'utf16le'),
        ]);
        return endian === 'LE' ? le : Buffer.from(le).swap16();
      };
      const summary = (res: HostileResponse) => {
        const body = res.body as { is_valid: boolean; issues: Array<{ rule_id?: string; location?: string }> };
        return {
          status: res.status,
          is_valid: body?.is_valid,
          issues: (body?.issues ?? []).map((i) => `${i.rule_id} ${i.location}`).sort(),
        };
      };

      for (const endian of ['LE', 'BE'] as const) {
        it(`UTF-16${endian} with a BOM is accepted exactly like the UTF-8 UBL (same validation result; created)`, async () => {
          const text = freshUbl();
          const expected = summary(await xml(text));
          expect(expected.status).to.equal(200);
          // All three ways at once, so that one report says which of them fail.
          const created = await xmlFile(utf16(freshUbl(), endian), '/api/documents/ubl');
          expect({
            'validate/ubl multipart': summary(await xmlFile(utf16(text, endian))),
            'validate/ubl raw application/xml': summary(await xml(utf16(text, endian))),
            'documents/ubl multipart': `${created.status} ${created.status === 200 ? '' : created.text.slice(0, 200)}`,
          }).to.deep.equal({
            'validate/ubl multipart': expected,
            'validate/ubl raw application/xml': expected,
            'documents/ubl multipart': '200 ',
          });
        });
      }

      it('invalid UTF-8 bytes in an otherwise valid UBL: 422 giving the byte position', async () => {
        const text = freshUbl();
        const at = text.indexOf('NOTE-SLOT') + 4;
        const offset = Buffer.byteLength(text.slice(0, at));
        const bytes = Buffer.concat([
          Buffer.from(text.slice(0, at)),
          Buffer.from([0xc3, 0x28, 0xff]),
          Buffer.from(text.slice(at)),
        ]);
        const failures: string[] = [];
        for (const [route, send] of [
          ['validate/ubl raw', () => xml(bytes)],
          ['validate/ubl multipart', () => xmlFile(bytes)],
          ['documents/ubl multipart', () => xmlFile(bytes, '/api/documents/ubl')],
        ] as const) {
          const res = await send();
          // 0-based or 1-based, the position of the first bad byte must be in the message.
          const ok =
            res.status === 422 &&
            errorShapeProblem(res) === null &&
            new RegExp(`\\b(${offset}|${offset + 1})\\b`).test(errorText(res));
          if (!ok) failures.push(`${route}: ${res.status} ${res.text.slice(0, 200)}`);
        }
        expect(failures, `bad byte at offset ${offset}:\n${failures.join('\n')}`).to.deep.equal([]);
      });
    });

    describe('large and poisoned JSON invoices', () => {
      it('a 28,000-line invoice (~2 MB of JSON) is created, and its PDF is rendered or refused naming a limit', async function () {
        const body = invoice();
        body.invoice_id = `HOSTILE-LINES-${randomBytes(4).toString('hex')}`;
        body.items = Array.from({ length: 28_000 }, (_, i) => ({
          description: `Bolt M${i % 40} zinc plated, batch ${i}`,
          quantity: 1 + (i % 7),
          unit_price: '1.25',
          tax_rate: '21.00',
          unit: 'C62',
        }));
        expect(JSON.stringify(body).length).to.be.greaterThan(2 * MiB);
        const created = await call(asA({ method: 'POST', path: '/api/documents', json: body, timeoutMs: 300_000 }));
        expect(created.status, created.text.slice(0, 500)).to.equal(200);
        const pdf = await call(
          asA({ method: 'GET', path: `/api/documents/${(created.body as { id: string }).id}/pdf`, timeoutMs: 300_000 }),
        );
        if (pdf.status === 200) expect(pdf.contentType).to.match(/application\/pdf/);
        else expect(expectClientError(pdf, 'GET /pdf')).to.match(/limit|too (large|many|long)|exceed/i);
      });

      /** Every string field of the invoice: top level and inside items and payment details. */
      const stringFields = (): Array<Array<string | number>> =>
        pathsOf(invoice()).filter(
          (p) => typeof p.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], invoice()) === 'string',
        );

      it('NUL and lone surrogates in every string field: 422 naming the field (create and validate)', async () => {
        const fields = stringFields();
        expect(fields.length).to.be.greaterThan(15);
        const failures: string[] = [];
        for (const field of fields) {
          for (const bad of ['\u0000', '\uD800', '\uDFFF']) {
            for (const route of ['/api/documents', '/api/validate/json']) {
              const original = field.reduce<unknown>(
                (v, k) => (v as Record<string | number, unknown>)[k],
                invoice(),
              ) as string;
              const body = setAt(invoice(), field, `${original.slice(0, 2)}${bad}${original.slice(2)}`, 'replace', '');
              const res = await call(asA({ method: 'POST', path: route, json: body }));
              const locs =
                res.status === 422 && Array.isArray((res.body as { detail: unknown }).detail)
                  ? (res.body as { detail: Array<{ loc: unknown[] }> }).detail.map((d) => d.loc)
                  : [];
              if (!locs.some((loc) => loc.includes(field[field.length - 1]!)))
                failures.push(
                  `${route} ${JSON.stringify(field)} ${JSON.stringify(bad)}: ${res.status} ${res.text.slice(0, 200)}`,
                );
            }
          }
        }
        expect(failures, failures.join('\n')).to.deep.equal([]);
      });

      it('__proto__, constructor and toString as the value of every string field and as keys: never a 5xx, and nothing polluted', async () => {
        const failures: string[] = [];
        const check = async (body: unknown, what: string) => {
          const req = asA({ method: 'POST', path: '/api/documents', json: body });
          const res = await call(req);
          if (res.status >= 500 || (res.status >= 400 && errorShapeProblem(res)))
            failures.push(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
        };
        for (const field of stringFields()) {
          for (const word of ['__proto__', 'constructor', 'toString'])
            await check(setAt(invoice(), field, word, 'replace', ''), `${JSON.stringify(field)} = ${word}`);
        }
        for (const at of [[], ['items', 0], ['payment_details', 0]] as Array<Array<string | number>>) {
          for (const word of ['__proto__', 'constructor', 'toString']) {
            for (const value of ['x', { polluted: 'yes', is_valid: true, state: 'RECEIVED' }, null, [1], 1]) {
              const body = invoice();
              body.invoice_id = `HOSTILE-PROTO-${randomBytes(4).toString('hex')}`;
              await check(
                setAt(body, at, value, 'addKey', word),
                `key ${word} at ${JSON.stringify(at)} = ${JSON.stringify(value)}`,
              );
            }
          }
        }
        expect(failures, failures.join('\n')).to.deep.equal([]);
        // Had a prototype been polluted, a plain document would now carry the injected fields.
        const plain = await call(
          asA({ method: 'POST', path: '/api/documents', json: { ...invoice(), invoice_id: 'HOSTILE-PLAIN' } }),
        );
        expect(plain.status).to.equal(200);
        expect(plain.text).not.to.include('polluted');
        expect((plain.body as { state: string }).state).to.equal('DRAFT');
      });

      it('a 1 MB string in invoice_id: 422 naming invoice_id', async () => {
        const res = await call(
          asA({ method: 'POST', path: '/api/documents', json: { ...invoice(), invoice_id: ONE_MB } }),
        );
        expectClientError(res, 'POST /api/documents', [422]);
        expect(
          (res.body as { detail: Array<{ loc: unknown[] }> }).detail.some((d) => d.loc.includes('invoice_id')),
          res.text.slice(0, 300),
        ).to.equal(true);
      });

      it('state RECEIVED or direction INBOUND in a create body: 422 and nothing recorded; DRAFT and OUTBOUND are accepted', async () => {
        for (const extra of [
          { state: 'RECEIVED' },
          { direction: 'INBOUND' },
          { state: 'SENT' },
          { state: 'RECEIVED', direction: 'INBOUND' },
        ]) {
          const before = await documentCount();
          const res = await call(
            asA({
              method: 'POST',
              path: '/api/documents',
              json: { ...invoice(), invoice_id: `HOSTILE-STATE-${randomBytes(4).toString('hex')}`, ...extra },
            }),
          );
          expectClientError(res, JSON.stringify(extra), [422]);
          expect(await documentCount(), JSON.stringify(extra)).to.equal(before);
        }
        const lawful = await call(
          asA({
            method: 'POST',
            path: '/api/documents',
            json: { ...invoice(), invoice_id: 'HOSTILE-LAWFUL', state: 'DRAFT', direction: 'OUTBOUND' },
          }),
        );
        expect(lawful.status, lawful.text.slice(0, 300)).to.equal(200);
        expect(lawful.body).to.include({ state: 'DRAFT', direction: 'OUTBOUND' });
      });
    });

    describe('PDF', () => {
      it('a FlateDecode bomb (about 13 GiB inflated, ~2 MB on the wire) to POST /api/documents/pdf: 413 or 422, nothing recorded', async () => {
        const bomb = await flateBombPdf();
        expect(bomb.pdf.length).to.be.below(5 * MiB);
        const before = await documentCount();
        const res = await call(
          asA({
            method: 'POST',
            path: '/api/documents/pdf',
            file: { fileName: 'bomb.pdf', contentType: 'application/pdf', data: bomb.pdf },
            timeoutMs: 300_000,
          }),
        );
        expectClientError(res, 'POST /api/documents/pdf', [413, 422]);
        expect(await documentCount()).to.equal(before);
      });
    });
  });

  // ---------------------------------------------------------------------------------------------
  // Throughout
  // ---------------------------------------------------------------------------------------------

  describe('throughout the suite', () => {
    it('a bystander tenant was answered every time, and the service (its process and worker processes) stayed under 1 GiB', async () => {
      await watchdog.stop();
      const max = watchdog.maxMemory();
      const mib = (b: number) => `${(b / MiB).toFixed(0)} MiB`;
      console.log(
        `      service process tree: max RSS ${mib(max.rssBytes)} (of which shared memory ${mib(max.shmemBytes)}; by process: ${Object.entries(
          max.byCommand,
        )
          .map(([k, v]) => `${k} ${mib(v)}`)
          .join(', ')}), ${watchdog.memory.length} samples`,
      );
      console.log(
        `      GET /api/me (tenant B, every ~100 ms): ${watchdog.calls.length} calls, p50 ${watchdog.percentile(50).toFixed(1)} ms, p99 ${watchdog.percentile(99).toFixed(1)} ms, max ${Math.max(...watchdog.calls.map((c) => c.ms)).toFixed(0)} ms`,
      );
      console.log(
        `      RSS peak by test:\n${watchdog
          .peaksByLabel()
          .slice(0, 8)
          .map(([label, bytes]) => `        ${mib(bytes)}  ${label || '(setup)'}`)
          .join('\n')}`,
      );
      const failed = watchdog.calls.filter((c) => c.status !== 200);
      expect(watchdog.calls.length).to.be.greaterThan(0);
      expect(
        failed.map((c) => `${new Date(c.at).toISOString()} ${c.status} during "${c.label}"`),
        'GET /api/me calls that did not answer 200',
      ).to.deep.equal([]);
      // The service is its node processes: the main one and its worker processes. Its embedded
      // PostgreSQL is the database server (in production a server of its own, with memory settings
      // of its own): its RSS is printed above, not held to the service's budget.
      const service = watchdog.maxMemoryOf('node');
      console.log(`      service (node processes): max RSS ${mib(service)}`);
      expect(service, `max RSS of the service's node processes`).to.be.below(1024 * MiB);
    });
  });
});
