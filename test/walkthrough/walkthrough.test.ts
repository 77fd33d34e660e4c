import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, startServiceProcess, type ServiceProcess } from '../support/serviceProcess.js';
import { freePort } from '../support/postgres.js';
import { documentationFiles, fencedBlocks } from '../docs/markdown.js';
import { repoRoot } from '../support/repoRoot.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const DEMO = path.resolve(here, '../../scripts/demo.js');

/** The README's walkthrough: every ```sh block whose first line is `# walkthrough`, in order. */
function walkthroughBlocks(readme: string): string[] {
  return [...readme.matchAll(/^```sh\n# walkthrough\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** The blocks marked runnable (a ```sh or ```bash block whose first line is `# runnable`), per document, in order. */
async function runnableBlocks(): Promise<Array<{ file: string; script: string }>> {
  const found: Array<{ file: string; script: string }> = [];
  for (const file of await documentationFiles(repoRoot)) {
    const blocks = fencedBlocks(await readFile(path.join(repoRoot, file), 'utf8')).filter(
      (b) => (b.info === 'sh' || b.info === 'bash') && b.body.split('\n')[0]!.trim() === '# runnable',
    );
    if (blocks.length > 0) found.push({ file, script: blocks.map((b) => b.body).join('\n') });
  }
  return found;
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; input?: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/**
 * The README's first-invoice walkthrough, run as written with bash (curl and jq) against the real
 * `npm start` process; then `npm run demo`'s compiled script against the same instance.
 */
describe('Walkthrough: the README path to a first sent invoice, npm run demo, and the runnable blocks of docs/', function () {
  this.timeout(300_000);
  const operatorKey = 'op_walkthrough_key_0123456789abcdef';
  let dataDir: string;
  let workDir: string;
  let service: ServiceProcess;

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'invoicing-walkthrough-'));
    workDir = await mkdtemp(path.join(os.tmpdir(), 'invoicing-walkthrough-cwd-'));
    const pgPort = await freePort();
    service = await startServiceProcess(
      { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), OPERATOR_KEY: operatorKey },
      await freePort(),
    );
  });
  after(async () => {
    if (service) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
    await rm(workDir, { recursive: true, force: true });
  });

  it("the README's commands, run as written, send an invoice that the buyer receives, accepts and downloads as a PDF", async () => {
    const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
    const blocks = walkthroughBlocks(readme);
    expect(blocks.length, 'the README marks its walkthrough blocks').to.be.greaterThanOrEqual(3);
    const script = blocks.join('\n');
    for (const route of ['/api/operator/organizations', '/peppol/register', '/send', '/api/inbox', '/accept', '/pdf'])
      expect(script, `the walkthrough uses ${route}`).to.include(route);

    // As written; afterwards, the variables it set, so that the outcome can be checked through the API.
    const trailer =
      '\nprintf \'{"doc":"%s","inbox":"%s","seller":"%s","buyer":"%s"}\\n\' "$DOC_ID" "$INBOX_ID" "$SELLER_KEY" "$BUYER_KEY"\n';
    const result = await run('bash', ['-e', '-o', 'pipefail', '-s'], {
      cwd: workDir,
      env: { BASE: service.baseUrl, OPERATOR_KEY: operatorKey },
      input: script + trailer,
    });
    const transcript = `stdout:\n${result.stdout}\nstderr:\n${result.stderr}\nservice:\n${service.output()}`;
    expect(result.code, transcript).to.equal(0);
    const lines = result.stdout.trim().split('\n');
    const vars = JSON.parse(lines.at(-1)!) as { doc: string; inbox: string; seller: string; buyer: string };
    expect(result.stdout, 'it printed the final state').to.include('state: SENT');

    const sent = await api(service.baseUrl, 'GET', `/api/documents/${vars.doc}`, vars.seller);
    expect(sent.status).to.equal(200);
    expect(sent.body.state).to.equal('SENT');
    expect(sent.body.invoice_id).to.equal('ACME-2025-0001');
    expect(sent.body.invoice_total).to.equal('3384.98');

    const inbox = await api(service.baseUrl, 'GET', '/api/inbox?search=ACME-2025-0001', vars.buyer);
    expect(inbox.body.total).to.equal(1);
    expect(inbox.body.items[0].id).to.equal(vars.inbox);
    const received = await api(service.baseUrl, 'GET', `/api/inbox/${vars.inbox}`, vars.buyer);
    expect(received.body.state).to.equal('RECEIVED');
    expect(received.body.invoice_response).to.include({ status: 'accepted', code: 'AP' });

    const pdf = await readFile(path.join(workDir, 'ACME-2025-0001.pdf'));
    expect(pdf.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    expect(pdf.length).to.be.greaterThan(1000);
  });

  it("npm run demo's script does the same steps against the running instance and says what happened", async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'invoicing-demo-out-'));
    try {
      // Twice: each run brings its own names and Peppol ids, so the demo can be repeated on one instance.
      for (let n = 0; n < 2; n++) {
        const result = await run(process.execPath, [DEMO], {
          cwd: workDir,
          env: { DEMO_URL: service.baseUrl, OPERATOR_KEY: operatorKey, DEMO_OUT: outDir },
        });
        expect(result.code, `${result.stdout}\n${result.stderr}`).to.equal(0);
        expect(result.stdout).to.include('state SENT');
        expect(result.stdout).to.include('response: accepted (AP)');
        const saved = /(\d+) bytes, saved to (.+\.pdf)/.exec(result.stdout);
        expect(saved, result.stdout).to.not.equal(null);
        const pdf = await readFile(saved![2]!);
        expect(pdf.length).to.equal(Number(saved![1]));
        expect(pdf.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
      }
      expect((await readdir(outDir)).filter((f) => f.endsWith('.pdf'))).to.have.length(2);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });

  it('the demo fails clearly, exit 1, when a step is refused (a wrong operator key)', async () => {
    const result = await run(process.execPath, [DEMO], {
      cwd: workDir,
      env: { DEMO_URL: service.baseUrl, OPERATOR_KEY: 'op_not_the_key_0123456789abcdefgh' },
    });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(/Failed: POST \/api\/operator\/organizations answered 401/);
  });

  it('every shell block of README.md and docs/ marked `# runnable` runs, each document in one bash from the root', async () => {
    const documents = await runnableBlocks();
    expect(documents.length, 'docs/ has runnable examples').to.be.greaterThanOrEqual(3);
    const organization = await api(service.baseUrl, 'POST', '/api/operator/organizations', operatorKey, {
      name: 'Docs examples',
    });
    expect(organization.status).to.equal(201);
    const adminKey = organization.body.admin_key.key as string;
    for (const [n, { file, script }] of documents.entries()) {
      // A tenant and an empty folder of its own per document, so that the documents do not depend on each other.
      const tenant = await api(service.baseUrl, 'POST', '/api/admin/tenants', adminKey, { name: `docs-example-${n}` });
      expect(tenant.status, JSON.stringify(tenant.body)).to.equal(201);
      const key = await api(service.baseUrl, 'POST', `/api/admin/tenants/${tenant.body.id}/api-keys`, adminKey, {
        name: 'docs',
      });
      const work = await mkdtemp(path.join(os.tmpdir(), 'invoicing-docs-example-'));
      try {
        const result = await run('bash', ['-e', '-o', 'pipefail', '-s'], {
          cwd: repoRoot,
          env: {
            BASE: service.baseUrl,
            OPERATOR_KEY: operatorKey,
            ADMIN_KEY: adminKey,
            TENANT_ID: tenant.body.id,
            TENANT_KEY: key.body.key,
            WORK: work,
          },
          input: script,
        });
        expect(result.code, `${file}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`).to.equal(0);
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    }
  });
});
