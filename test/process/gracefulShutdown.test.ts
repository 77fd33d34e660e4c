import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { api, startServiceProcess, type ServiceProcess } from '../support/serviceProcess.js';
import { freePort } from '../support/postgres.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

/** What the process printed from the signal on: the shutdown's own lines. */
function afterSignal(output: string): string {
  const at = output.indexOf('"msg":"shutting down"');
  expect(at, output).to.be.at.least(0);
  return output.slice(output.lastIndexOf('\n', at) + 1);
}

/** Shutdown lines that must not be: anything at warn or above, an error, a stack frame. */
function problems(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => {
      const level = /"level":(\d+)/.exec(line);
      return (level && Number(level[1]) >= 40) || /Error|\n?\s+at .+:\d+:\d+|Warning/.test(line);
    });
}

/**
 * The real `npm start` process on its own embedded PostgreSQL, stopped with SIGINT (to its whole
 * process group, as Ctrl-C in a terminal does) or SIGTERM: it stops taking connections, finishes
 * what is under way, closes the database and exits 0 without a warning or a stack trace.
 */
describe('Graceful shutdown of the service process (SIGINT, SIGTERM)', function () {
  this.timeout(180_000);
  let dataDir: string;
  const operatorKey = 'op_shutdown_test_key_0123456789abc';
  let running: ServiceProcess | null = null;

  const start = async (ownGroup: boolean) => {
    const port = await freePort();
    // At info, so the shutdown's own lines are in the output (a warning would be too).
    const env = {
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      OPERATOR_KEY: operatorKey,
    };
    running = await startServiceProcess(env, port, 90_000, ownGroup);
    return { service: running, port };
  };

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'invoicing-shutdown-'));
  });
  afterEach(async () => {
    if (running && running.child.exitCode === null) running.child.kill('SIGKILL');
    running = null;
    await rm(dataDir, { recursive: true, force: true });
  });

  it('Ctrl-C (SIGINT to the process group) with a request in flight: refuses new connections, answers it, exits 0 cleanly', async () => {
    const { service, port } = await start(true);
    const org = await api(service.baseUrl, 'POST', '/api/operator/organizations', operatorKey, { name: 'Shutdown' });
    const adminKey = org.body.admin_key.key as string;
    const tenant = await api(service.baseUrl, 'POST', '/api/admin/tenants', adminKey, { name: 'inflight' });
    const key = (
      await api(service.baseUrl, 'POST', `/api/admin/tenants/${tenant.body.id}/api-keys`, adminKey, {
        name: 'app',
      })
    ).body.key as string;

    // A request whose body is still arriving when the signal comes.
    let inFlight: () => void = () => undefined;
    const body = Buffer.from(JSON.stringify({ ...realisticDocuments()[0]!.body, invoice_id: 'IN-FLIGHT-1' }));
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/documents/',
          headers: {
            Authorization: `Bearer ${key}`,
            'Content-Type': 'application/json',
            'Content-Length': body.length,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.subarray(0, 100));
      inFlight = () => req.end(body.subarray(100));
    });
    // The server has the request's headers (it waits for the rest of the body) once this answers
    // on another connection: requests are read in order of arrival.
    expect((await fetch(`${service.baseUrl}/healthz`)).status).to.equal(200);

    process.kill(-service.child.pid!, 'SIGINT');
    // It stops accepting connections while the request is still under way.
    for (;;) {
      const refused = await fetch(`${service.baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
        () => false,
        () => true,
      );
      if (refused) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    inFlight();
    const answered = await answer;
    expect(answered.status, answered.body).to.equal(200);
    expect(JSON.parse(answered.body)).to.include({ state: 'DRAFT', invoice_id: 'IN-FLIGHT-1' });

    expect(await service.exited).to.equal(0);
    const output = afterSignal(service.output());
    expect(output).to.include('"msg":"stopped"');
    expect(problems(output), output).to.deep.equal([]);
    // The database was shut down with it.
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).to.equal(false);
  });

  it('SIGTERM to the process alone: exits 0, the database closed, nothing printed but the shutdown', async () => {
    const { service } = await start(false);
    expect(
      (await api(service.baseUrl, 'POST', '/api/operator/organizations', operatorKey, { name: 'T' })).status,
    ).to.equal(201);
    service.child.kill('SIGTERM');
    expect(await service.exited).to.equal(0);
    const output = afterSignal(service.output());
    expect(output).to.match(/"signal":"SIGTERM"/);
    expect(output).to.include('"msg":"stopped"');
    expect(problems(output), output).to.deep.equal([]);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).to.equal(false);
  });
});
