import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { api, startServiceProcess, until, type ServiceProcess } from '../support/serviceProcess.js';
import { freePort, freshDatabase } from '../support/postgres.js';
import { startSmtpServer, type TestSmtp } from '../support/smtp.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

const invoice = (number: string) => ({
  ...(structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>),
  invoice_id: number,
});

interface Answer {
  status: number;
  body: { id?: string; state?: string; detail?: unknown } & Record<string, unknown>;
  via: ServiceProcess;
}

/** Every answer each Idempotency-Key got, and what the requests a process died under went through. */
class Clients {
  readonly answers = new Map<string, Answer[]>();
  /** Requests whose connection was cut off (their process died). */
  cutOff = 0;
  /** When the last request that had to be retried got its final answer. */
  lastRetryAnsweredAt = 0;

  constructor(
    private readonly live: () => ServiceProcess[],
    private readonly key: string,
    /** A request that has to be retried must be answered before this. */
    private readonly deadline: () => number,
  ) {}

  /**
   * Posts with the Idempotency-Key until a final answer, on the live processes in turn (waiting
   * while there is none): a connection cut off (its process died), a 5xx, or a 409 "still being
   * processed" is tried again with the same key, on the next process.
   */
  async post(route: string, idempotencyKey: string, body: unknown, first = 0): Promise<Answer> {
    let retried = false;
    for (let attempt = first; ; attempt++) {
      if (retried && Date.now() > this.deadline())
        throw new Error(
          `${route} (key ${idempotencyKey}) unanswered at the deadline: ${JSON.stringify(this.answers.get(idempotencyKey)?.map((a) => [a.status, a.body]))}`,
        );
      const processes = this.live();
      if (processes.length === 0) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      const via = processes[attempt % processes.length]!;
      let answer: Answer;
      try {
        const res = await fetch(`${via.baseUrl}${route}`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${this.key}`,
            'Idempotency-Key': idempotencyKey,
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        answer = { status: res.status, body: text ? JSON.parse(text) : null, via };
      } catch {
        this.cutOff++;
        retried = true;
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      this.answers.set(idempotencyKey, [...(this.answers.get(idempotencyKey) ?? []), answer]);
      if (answer.status >= 500 || (answer.status === 409 && /still being processed/.test(String(answer.body.detail)))) {
        retried = true;
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      if (retried) this.lastRetryAnsweredAt = Math.max(this.lastRetryAnsweredAt, Date.now());
      return answer;
    }
  }
}

/** The answers of a key that are its result: not a "busy" 409, not a 5xx. */
const results = (clients: Clients, key: string) =>
  clients.answers
    .get(key)!
    .filter((a) => a.status < 500 && !(a.status === 409 && /still being processed/.test(String(a.body.detail))));

/**
 * Real service processes killed (SIGKILL, from a failpoint: right after a request's work is
 * recorded and before its result is kept, while other requests are in flight) in the middle of
 * creates and sends made with Idempotency-Keys; clients retry each cut-off request with its key on
 * another process (or on the restarted one). Every retry gets the first request's result, every
 * document exists once and is sent once, and the deliveries the dead process had scheduled are
 * taken over.
 */
describe('Idempotency-Keys across a process crash (SIGKILL, real processes)', function () {
  this.timeout(600_000);
  const operatorKey = `op_idem_crash_${randomUUID().replaceAll('-', '')}`;
  // Processes on one database share the master key of the tenants' personal-data keys.
  const personalDataKey = randomBytes(32).toString('base64');
  let smtp: TestSmtp;
  let refusing = true;
  const dirs: string[] = [];
  const started: ServiceProcess[] = [];

  const env = async (extra: Record<string, string>) => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'invoicing-idem-crash-'));
    dirs.push(dataDir);
    return {
      DATA_DIR: dataDir,
      OPERATOR_KEY: operatorKey,
      PERSONAL_DATA_KEY: personalDataKey,
      SMTP_URL: smtp.url,
      RATE_LIMIT_STANDARD_PER_MINUTE: '0',
      RATE_LIMIT_ADMIN_PER_MINUTE: '0',
      RATE_LIMIT_ADMIN_PER_HOUR: '0',
      // A crashed process's claimed jobs and first attempts are taken over after this. A first
      // attempt still under way after it would be made again by another process: on this busy
      // machine an SMTP attempt can take seconds.
      JOB_LOCK_LIFETIME_MS: '10000',
      // Retries 0.1, 0.2, 0.4 … s apart: a refused delivery is tried again soon.
      DELIVERY_RETRY_UNIT_MS: '100',
      WORK_PROCESSES: '1',
      ...extra,
    };
  };
  const start = async (extra: Record<string, string>) => {
    const p = await startServiceProcess(await env(extra), await freePort());
    started.push(p);
    return p;
  };

  before(async () => {
    smtp = await startSmtpServer(() => refusing);
  });
  afterEach(async () => {
    for (const p of started.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) {
        p.child.kill('SIGTERM');
        await p.exited;
      }
    }
  });
  after(async () => {
    await smtp?.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /** An organization and a test-mode tenant (mail to the SMTP sink) with its API key. */
  async function tenant(p: ServiceProcess): Promise<string> {
    const org = await api(p.baseUrl, 'POST', '/api/operator/organizations', operatorKey, { name: 'Idem reseller' });
    const adminKey: string = org.body.admin_key.key;
    // A tenant sends only as a participant it holds: the invoices name no seller id, so they are
    // sent as this one.
    const created = await api(p.baseUrl, 'POST', '/api/admin/tenants', adminKey, {
      name: `idem-${randomUUID()}`,
      peppol_ids: ['0208:0403013026'],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const key = await api(p.baseUrl, 'POST', `/api/admin/tenants/${created.body.id}/api-keys`, adminKey, {
      name: 'app',
    });
    const mode = await api(p.baseUrl, 'PUT', `/api/operator/tenants/${created.body.id}/test-mode`, operatorKey, {
      test_mode: true,
      email: 'qa@idem-crash.test',
    });
    expect(mode.status).to.equal(200);
    return key.body.key as string;
  }

  /**
   * `count` documents, each created then sent with keys of their own, `concurrency` at a time:
   * what each create and each send finally answered.
   */
  async function load(clients: Clients, prefix: string, count: number, concurrency: number) {
    const flows = new Map<string, { create: Answer; send: Answer }>();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async (_, lane) => {
        while (next < count) {
          const number = `${prefix}-${next++}`;
          const create = await clients.post('/api/documents/', `create-${number}`, invoice(number), lane);
          expect(create.status, JSON.stringify(create.body)).to.equal(200);
          const send = await clients.post(
            `/api/documents/${create.body.id}/send`,
            `send-${number}`,
            undefined,
            lane + 1,
          );
          flows.set(number, { create, send });
        }
      }),
    );
    return flows;
  }

  /** Every answer of a key that is not "busy" or cut off is the same as the first one. */
  function expectOneResult(clients: Clients, key: string, state: string) {
    const final = results(clients, key);
    expect(final.length, key).to.be.greaterThan(0);
    for (const answer of final) {
      expect(answer.status, `${key}: ${JSON.stringify(answer.body)}`).to.equal(200);
      expect(answer.body, key).to.deep.equal(final[0]!.body);
    }
    expect(final[0]!.body.state, key).to.equal(state);
  }

  /** The tenant's documents, by number: each exists once, then is SENT, delivered once. */
  async function expectEachSentOnce(p: ServiceProcess, key: string, numbers: string[], ids: Map<string, string>) {
    const listed = await until(async () => {
      const res = await api(p.baseUrl, 'GET', `/api/documents?limit=1000`, key);
      return res.body.total >= numbers.length && (res.body.documents as Array<{ id: string; invoice_id: string }>);
    }, 'the documents listed');
    const byNumber = new Map<string, string[]>();
    for (const d of listed) byNumber.set(d.invoice_id, [...(byNumber.get(d.invoice_id) ?? []), d.id]);
    for (const number of numbers)
      expect(byNumber.get(number), `documents numbered ${number}`).to.deep.equal([ids.get(number)]);
    expect(listed).to.have.length(numbers.length);

    refusing = false;
    let states = '';
    const reports = await until(
      async () => {
        const all = await Promise.all(
          numbers.map(
            async (n) => (await api(p.baseUrl, 'GET', `/api/documents/${ids.get(n)}/transmission-report`, key)).body,
          ),
        );
        const count = new Map<string, number>();
        for (const r of all) count.set(String(r.state), (count.get(String(r.state)) ?? 0) + 1);
        states = JSON.stringify([...count]);
        return all.every((r) => r.state === 'SENT') && all;
      },
      'every document SENT',
      150_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}: states ${states}`);
    });
    const mailed = new Map<string, number>();
    for (const m of smtp.messages) mailed.set(m.messageId ?? '', (mailed.get(m.messageId ?? '') ?? 0) + 1);
    for (const report of reports) {
      expect(report.deliveries, report.document_id).to.have.length(1);
      const messageId = `<${report.deliveries[0].message_id}>`;
      expect(mailed.get(messageId), `mails of ${report.document_id}: ${JSON.stringify(report)}`).to.equal(1);
    }
    return reports as Array<{
      document_id: string;
      deliveries: Array<{ attempts: Array<{ outcome: string; started_at: string }> }>;
    }>;
  }

  it('three processes on one PostgreSQL, one killed mid-request: retries on the others get the first results within 30 s, each document is made and sent once, its scheduled retries are taken over', async () => {
    refusing = true;
    const databaseUrl = await freshDatabase('idem_crash');
    // The first dies the 12th time it is about to keep a result, the 12th request's work done (it
    // takes about a third of the 72 requests, fewer when it is the slowest: well before its last).
    const [a, b, c] = await Promise.all([
      start({ DATABASE_URL: databaseUrl, FAILPOINTS: 'idempotency:before-complete@12' }),
      start({ DATABASE_URL: databaseUrl }),
      start({ DATABASE_URL: databaseUrl }),
    ]);
    const key = await tenant(b!);
    let diedAt = 0;
    void a!.exited.then(() => {
      diedAt = Date.now();
      // The mail server refused every delivery while the process lived: now it takes them.
      refusing = false;
    });
    const processes = [a!, b!, c!];
    const clients = new Clients(
      () => processes.filter((p) => p.child.exitCode === null && p.child.signalCode === null),
      key,
      // Retries are made for 30 s after the process died.
      () => (diedAt === 0 ? Infinity : diedAt + 30_000),
    );
    const flows = await load(clients, 'IDEM3', 36, 6);
    const ended = await Promise.race([a!.exited, new Promise((r) => setTimeout(() => r('still running'), 30_000))]);
    const via = (p: ServiceProcess) =>
      [...clients.answers.values()]
        .flat()
        .filter((x) => x.via === p)
        .map((x) => x.status);
    expect(
      ended,
      `killed by its failpoint (answers of the first: ${JSON.stringify(via(a!))}; its log: ${a!.output().slice(-3000)})`,
    ).to.equal(null);
    expect(a!.child.signalCode).to.equal('SIGKILL');
    expect(clients.cutOff, 'requests were in flight on the process that died').to.be.greaterThan(0);
    console.log(
      `      ${clients.cutOff} requests cut off; the last retry answered ${((clients.lastRetryAnsweredAt - diedAt) / 1000).toFixed(1)} s after the crash`,
    );

    const numbers = [...flows.keys()];
    for (const number of numbers) {
      expectOneResult(clients, `create-${number}`, 'DRAFT');
      expectOneResult(clients, `send-${number}`, 'TRANSIT');
    }
    const ids = new Map(numbers.map((n) => [n, flows.get(n)!.create.body.id!]));
    const reports = await expectEachSentOnce(c!, key, numbers, ids);
    // The deliveries the dead process started before it died: their first attempt was refused
    // (the mail server refused everything until later), and the retries it had scheduled for them
    // were made by the others.
    const startedByA = numbers
      .filter((n) => clients.answers.get(`send-${n}`)!.some((x) => x.via === a && x.status === 200))
      .map((n) => reports.find((r) => r.document_id === ids.get(n))!.deliveries[0]!.attempts)
      .filter((attempts) => new Date(attempts[0]!.started_at).getTime() < diedAt);
    expect(startedByA.length).to.be.greaterThan(0);
    for (const attempts of startedByA) {
      expect(attempts[0]!.outcome).to.not.equal('delivered');
      expect(attempts[attempts.length - 1]!.outcome).to.equal('delivered');
    }
  });

  it('one process killed mid-request and started again on its data: the retries get the first results', async () => {
    refusing = true;
    const pgPort = String(await freePort());
    const environment = await env({ EMBEDDED_PG_PORT: pgPort });
    const port = await freePort();
    const first = await startServiceProcess({ ...environment, FAILPOINTS: 'idempotency:before-complete@10' }, port);
    started.push(first);
    const key = await tenant(first);
    let current: ServiceProcess = first;
    let diedAt = 0;
    const restarted = first.exited.then(async () => {
      diedAt = Date.now();
      refusing = false;
      // Started again on the same data folder (the orphaned PostgreSQL is shut down and restarted).
      const p = await startServiceProcess(environment, port);
      started.push(p);
      current = p;
    });
    const clients = new Clients(
      () => [current].filter((p) => p.child.exitCode === null && p.child.signalCode === null),
      key,
      // The restart takes its time (the orphaned PostgreSQL is stopped and started again).
      () => (diedAt === 0 ? Infinity : diedAt + 120_000),
    );
    const flows = await load(clients, 'IDEM1', 16, 4);
    await restarted;
    expect(first.child.signalCode).to.equal('SIGKILL');
    expect(clients.cutOff).to.be.greaterThan(0);
    console.log(
      `      ${clients.cutOff} requests cut off; the last retry answered ${((clients.lastRetryAnsweredAt - diedAt) / 1000).toFixed(1)} s after the crash (restart included)`,
    );
    const numbers = [...flows.keys()];
    for (const number of numbers) {
      expectOneResult(clients, `create-${number}`, 'DRAFT');
      expectOneResult(clients, `send-${number}`, 'TRANSIT');
    }
    await expectEachSentOnce(current, key, numbers, new Map(numbers.map((n) => [n, flows.get(n)!.create.body.id!])));
  });
});
