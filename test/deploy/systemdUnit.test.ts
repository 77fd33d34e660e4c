import { spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { describeRequiring } from '../support/helperServer.js';
import { freePort } from '../support/postgres.js';
import { repoRoot } from '../support/repoRoot.js';

const UNIT = path.join(repoRoot, 'deploy', 'systemd', 'invoicing.service');
const ENV_FILE = path.join(repoRoot, 'deploy', 'systemd', 'invoicing.env');
/** Where the unit expects the checkout and the env file; here they are this checkout and deploy/systemd/invoicing.env. */
const INSTALLED_CHECKOUT = '/opt/invoicing';

/** The [Service] section of a unit file: each key's values in order (systemd allows repeats). */
function serviceSection(unit: string): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  let section = '';
  for (const raw of unit.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    if (/^\[.*\]$/.test(line)) section = line;
    else if (section === '[Service]') {
      const at = line.indexOf('=');
      const key = line.slice(0, at);
      keys.set(key, [...(keys.get(key) ?? []), line.slice(at + 1)]);
    }
  }
  return keys;
}

/** An EnvironmentFile as systemd reads it: KEY=value lines, # and ; comments, optional quotes. */
function environmentFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const at = line.indexOf('=');
    env[line.slice(0, at).trim()] = line
      .slice(at + 1)
      .trim()
      .replace(/^"(.*)"$|^'(.*)'$/, '$1$2');
  }
  return env;
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

const unitText = readFileSync(UNIT, 'utf8');
const unit = serviceSection(unitText);
const execStart = unit.get('ExecStart')![0]!.split(/\s+/);
const mainFile = execStart[1]!.replace(INSTALLED_CHECKOUT, repoRoot);

describeRequiring(
  'deploy/systemd/invoicing.service: the service started as the unit starts it',
  'a build (npm run build)',
  existsSync(mainFile) ? { kind: 'built' } : { kind: 'none', why: `no build at ${mainFile} (npm run build makes it)` },
  () =>
    describe('deploy/systemd/invoicing.service: the service started as the unit starts it (its command line, environment file and working directory; no systemd)', function () {
      this.timeout(180_000);

      it('runs the built output (not npm), restarts on failure, stops the service process alone with SIGTERM', () => {
        expect(execStart).to.deep.equal(['/usr/bin/node', `${INSTALLED_CHECKOUT}/build/current/src/main.js`]);
        expect(unit.get('WorkingDirectory')).to.deep.equal([INSTALLED_CHECKOUT]);
        expect(unit.get('EnvironmentFile')).to.deep.equal(['/etc/invoicing/invoicing.env']);
        expect(unit.get('Restart')).to.deep.equal(['on-failure']);
        expect(unit.get('KillMode')).to.deep.equal(['mixed']);
        expect(unit.get('KillSignal')).to.deep.equal(['SIGTERM']);
        // Longer than the service's own grace for requests, deliveries and jobs (10 s each).
        expect(Number(unit.get('TimeoutStopSec')![0])).to.be.greaterThanOrEqual(40);
        expect(unit.get('ReadWritePaths')).to.deep.equal([`-${INSTALLED_CHECKOUT}/build/running`]);
      });

      it('answers /healthz, says in JSON lines what is on and off, holds its build, and stops cleanly on SIGTERM', async () => {
        const dataDir = await mkdtemp(path.join(os.tmpdir(), 'invoicing-unit-'));
        const [port, pgPort] = [await freePort(), await freePort()];
        // What systemd gives the process: a bare environment and the file's settings. DATA_DIR and
        // the ports are this test's own (the unit's StateDirectory and port 8080 are not ours here).
        const env = {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: os.tmpdir(),
          ...environmentFile(await readFile(ENV_FILE, 'utf8')),
          DATA_DIR: dataDir,
          PORT: String(port),
          EMBEDDED_PG_PORT: String(pgPort),
        };
        expect(env).to.include({ HOST: '127.0.0.1', LOG_FORMAT: 'json' });
        const child = spawn(process.execPath, [mainFile], {
          cwd: unit.get('WorkingDirectory')![0]!.replace(INSTALLED_CHECKOUT, repoRoot),
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
        try {
          let healthy = false;
          for (let i = 0; i < 600 && !healthy && child.exitCode === null; i++) {
            healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
              (res) => res.ok,
              () => false,
            );
            if (!healthy) await new Promise((r) => setTimeout(r, 200));
          }
          expect(healthy, output).to.equal(true);

          const records = output
            .split('\n')
            .filter((line) => line.startsWith('{'))
            .map((line) => JSON.parse(line) as Record<string, unknown>);
          const startup = records.find((r) => r.startup);
          expect(startup, output).to.not.equal(undefined);
          const facts = Object.fromEntries(
            (startup!.startup as Array<{ part: string; on: boolean | null; detail: string }>).map((f) => [f.part, f]),
          );
          const generation = path.basename(realpathSync(path.dirname(path.dirname(mainFile))));
          expect(facts.build!.detail).to.equal(`build/${generation}`);
          expect(facts.AS4).to.include({ on: false });
          expect(facts.AS4!.detail).to.match(/^AS4_KEY_FILE is not set/);
          expect(facts['SMP signing']).to.include({ on: false });
          expect(facts['e-mail']).to.include({ on: false });
          expect(facts.storage!.detail).to.match(/^embedded PostgreSQL under /);
          expect(facts['rule sets']!.detail).to.match(/^peppol-bis-[\d.]+ in force on /);
          // The expected "off" parts are in the block, not warnings of their own.
          expect(records.filter((r) => (r.level as number) >= 40)).to.deep.equal([]);
          // It holds its generation: no build removes it while it runs.
          const record = path.join(repoRoot, 'build', 'running', String(child.pid));
          expect(readFileSync(record, 'utf8')).to.equal(generation);

          child.kill(unit.get('KillSignal')![0] as NodeJS.Signals);
          const code = await Promise.race([
            exited,
            new Promise<'timeout'>((resolve) =>
              setTimeout(() => resolve('timeout'), Number(unit.get('TimeoutStopSec')![0]) * 1000),
            ),
          ]);
          expect(code, output).to.equal(0);
          expect(output).to.include('"msg":"stopped"');
          expect(await portOpen(pgPort), 'the embedded PostgreSQL stopped with it').to.equal(false);
          expect(existsSync(record), 'its hold on the build is gone').to.equal(false);
        } finally {
          if (child.exitCode === null) child.kill('SIGKILL');
          await exited;
          await rm(dataDir, { recursive: true, force: true });
        }
      });
    }),
);
