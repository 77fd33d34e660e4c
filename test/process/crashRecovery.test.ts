import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { api, MAIN, startServiceProcess } from '../support/serviceProcess.js';
import { freePort } from '../support/postgres.js';

const REBUILD = path.resolve(path.dirname(MAIN), '../scripts/rebuild-projection.js');

/**
 * The real `npm start` process on its own embedded PostgreSQL, killed with SIGKILL in the
 * middle of writes and started again.
 */
describe('Crash recovery of the service process (SIGKILL)', function () {
  this.timeout(240_000);
  let dataDir: string;
  const operatorKey = 'op_crash_test_key_0123456789abcdef';
  let port: number;
  // The admin rate limit (100 a minute) is not under test, and this test makes more calls than that.
  const env = async () => ({
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    OPERATOR_KEY: operatorKey,
    RATE_LIMIT_ADMIN_PER_MINUTE: '0',
  });

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'invoicing-crash-'));
    port = await freePort();
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('loses no acknowledged write, and projections catch up to the same read models', async () => {
    const firstEnv = await env();
    const first = await startServiceProcess(firstEnv, port);
    const org = await api(first.baseUrl, 'POST', '/api/operator/organizations', operatorKey, {
      name: 'Crash reseller',
    });
    expect(org.status).to.equal(201);
    const adminKey: string = org.body.admin_key.key;

    // Many concurrent creations; the process is killed while some are still in flight.
    const acknowledged: string[] = [];
    const acknowledgedNames: string[] = [];
    const attempts = Array.from({ length: 60 }, (_, i) =>
      api(first.baseUrl, 'POST', '/api/admin/tenants', adminKey, { name: `crash-tenant-${i}` })
        .then((res) => {
          if (res.status === 201) {
            acknowledged.push(res.body.id);
            acknowledgedNames.push(res.body.name);
          }
        })
        .catch(() => undefined),
    );
    while (acknowledged.length < 15) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGKILL');
    await first.exited;
    await Promise.all(attempts);
    expect(acknowledged.length).to.be.greaterThanOrEqual(15);

    // Restart on the same data folder (the orphaned PostgreSQL is shut down and restarted).
    const secondEnv = await env();
    const second = await startServiceProcess(secondEnv, port);
    try {
      for (const id of acknowledged) {
        const tenant = await api(second.baseUrl, 'GET', `/api/admin/tenants/${id}`, adminKey);
        expect(tenant.status, `tenant ${id} acknowledged before the crash`).to.equal(200);
      }
      const list = await api(second.baseUrl, 'GET', '/api/admin/tenants?limit=1000', adminKey);
      expect(list.status).to.equal(200);
      const listed = new Set<string>(list.body.tenants.map((t: { id: string }) => t.id));
      for (const id of acknowledged) expect(listed.has(id), `tenant ${id} in the read model`).to.equal(true);
      // Names are unique: whatever committed, committed once.
      const names = list.body.tenants.map((t: { name: string }) => t.name);
      expect(new Set(names).size).to.equal(names.length);

      // The admin key, an event from before the crash, still authenticates; a second
      // creation of an acknowledged name is refused, so its reservation is really there.
      const again = await api(second.baseUrl, 'POST', '/api/admin/tenants', adminKey, { name: acknowledgedNames[0] });
      expect(again.status).to.equal(409);

      // Rebuilding every projection from zero, while the service runs on the same embedded
      // server, converges on the same read models.
      const rebuild = spawnSync(process.execPath, [REBUILD, '--all'], {
        env: { ...process.env, ...secondEnv, LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      });
      expect(rebuild.status, rebuild.stderr + rebuild.stdout).to.equal(0);
      expect(rebuild.stdout).to.match(/rebuilt tenants, api_keys/);
      const relisted = await api(second.baseUrl, 'GET', '/api/admin/tenants?limit=1000', adminKey);
      expect(relisted.body.total).to.equal(list.body.total);
      expect(relisted.body.tenants.map((t: { id: string }) => t.id).sort()).to.deep.equal([...listed].sort());
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited, second.output()).to.equal(0);
    }
    // A clean stop also stops the embedded PostgreSQL.
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).to.equal(false);
  });
});
