import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { api, startServiceProcess, type ServiceProcess } from './serviceProcess.js';
import { freePort } from './postgres.js';
import { startTestSml, type TestSml } from './testSml.js';
import { makeTestPki, type TestPki } from './testPki.js';

/**
 * A Peppol network on loopback: a private PKI, an SML (SOAP registration + DNS), and any number
 * of instances of this service, each a real `npm start` process with its own embedded database,
 * access point key (seat POP00000i), SMP signing key and public URL. Instances publish their
 * registrations to the SML and find each other through it, as access points do on the real
 * network; AS4 runs over plain HTTP on loopback, which each instance allows explicitly.
 */
export interface NetworkInstance {
  index: number;
  seatId: string;
  port: number;
  baseUrl: string;
  operatorKey: string;
  process: ServiceProcess | null;
  /** Starts (or restarts, on the same data) the process; `extra` adds or overrides variables. */
  start(extra?: Record<string, string>): Promise<ServiceProcess>;
  /** SIGTERM and wait for a clean exit. */
  stop(): Promise<void>;
  /** SIGKILL, no cleanup. */
  kill(): Promise<void>;
  /** Calls the API (JSON) with a key. */
  call(method: string, route: string, key: string, body?: unknown): ReturnType<typeof api>;
}

export interface PeppolNetwork {
  pki: TestPki;
  sml: TestSml;
  instances: NetworkInstance[];
  close(): Promise<void>;
}

export interface NetworkOptions {
  instances?: number;
  /** Variables for every instance (e.g. DELIVERY_RETRY_UNIT_MS). */
  env?: Record<string, string>;
}

/**
 * The Peppol settings of instance `i` at `baseUrl`: its AP key and certificate (seat POP00000i),
 * its SMP signing key, the test PKI's CAs as the trusted AP and SMP CAs, the test SML (which learns
 * the instance's SMP URL here), and plain HTTP on loopback allowed.
 */
export function accessPointEnv(pki: TestPki, sml: TestSml, i: number, baseUrl: string): Record<string, string> {
  const ap = pki.instance(i);
  const smpId = `TEST-SMP-${i}`;
  sml.addSmp(smpId, baseUrl);
  return {
    PUBLIC_URL: baseUrl,
    AS4_KEY_FILE: ap.keyFile,
    AS4_CERTIFICATE_FILE: ap.certificateFile,
    SMP_SIGNING_KEY_FILE: ap.smpKeyFile,
    SMP_SIGNING_CERTIFICATE_FILE: ap.smpCertificateFile,
    PEPPOL_TRUSTED_CA_FILES: `${pki.smpCaCertificateFile},${pki.apCaCertificateFile}`,
    PEPPOL_AP_CA_FILES: pki.apCaCertificateFile,
    AS4_ALLOW_PLAIN_HTTP_LOOPBACK: 'true',
    ...sml.env(smpId),
  };
}

export async function startPeppolNetwork(options: NetworkOptions = {}): Promise<PeppolNetwork> {
  const count = options.instances ?? 2;
  const pki = await makeTestPki({ instances: count });
  const sml = await startTestSml();
  const dirs: string[] = [];
  const instances: NetworkInstance[] = [];
  for (let i = 1; i <= count; i++) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), `peppol-network-${i}-`));
    dirs.push(dataDir);
    const port = await freePort();
    const pgPort = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const operatorKey = `op_network_instance_${i}_0123456789abcdef`;
    const env = {
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      OPERATOR_KEY: operatorKey,
      RATE_LIMIT_STANDARD_PER_MINUTE: '0',
      RATE_LIMIT_PREMIUM_PER_MINUTE: '0',
      RATE_LIMIT_ADMIN_PER_MINUTE: '0',
      RATE_LIMIT_ADMIN_PER_HOUR: '0',
      JOB_LOCK_LIFETIME_MS: '3000',
      ...accessPointEnv(pki, sml, i, baseUrl),
      ...options.env,
    };
    const instance: NetworkInstance = {
      index: i,
      seatId: pki.instance(i).seatId,
      port,
      baseUrl,
      operatorKey,
      process: null,
      async start(extra = {}) {
        instance.process = await startServiceProcess({ ...env, ...extra }, port);
        return instance.process;
      },
      async stop() {
        const p = instance.process;
        if (!p) return;
        instance.process = null;
        if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
        await p.exited;
      },
      async kill() {
        const p = instance.process;
        if (!p) return;
        instance.process = null;
        if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
        await p.exited;
      },
      call: (method, route, key, body) => api(baseUrl, method, route, key, body),
    };
    instances.push(instance);
  }
  return {
    pki,
    sml,
    instances,
    async close() {
      await Promise.allSettled(instances.map((i) => i.stop()));
      await sml.close();
      await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
      await pki.dispose();
    },
  };
}

/** An organization, a tenant on it with `peppolId` registered on the network, and the tenant's key. */
export async function networkTenant(
  instance: NetworkInstance,
  peppolId: string,
  name: string,
): Promise<{ tenantId: string; key: string; adminKey: string }> {
  const org = await instance.call('POST', '/api/operator/organizations', instance.operatorKey, { name: `${name} org` });
  if (org.status !== 201 && org.status !== 200) throw new Error(`organization: ${JSON.stringify(org.body)}`);
  const adminKey: string = org.body.admin_key.key;
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${peppolId.replace(/\W/g, '')}`;
  const tenant = await instance.call('POST', '/api/admin/tenants', adminKey, { name: slug, peppol_ids: [peppolId] });
  if (tenant.status !== 201) throw new Error(`tenant: ${JSON.stringify(tenant.body)}`);
  const key = await instance.call('POST', `/api/admin/tenants/${tenant.body.id}/api-keys`, adminKey, { name: 'app' });
  const registered = await instance.call('POST', `/api/admin/tenants/${tenant.body.id}/peppol/register`, adminKey, {
    peppol_id: peppolId,
    company_name: name,
  });
  if (registered.status !== 200) throw new Error(`registration: ${JSON.stringify(registered.body)}`);
  return { tenantId: tenant.body.id, key: key.body.key, adminKey };
}
