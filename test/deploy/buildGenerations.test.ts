import { spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../support/postgres.js';
import { repoRoot } from '../support/repoRoot.js';

/*
 * scripts/build (generations.mjs, run.mjs) as they are, on a small project laid out as this one
 * is (tsconfig.json over src/, a vite console under web/console, node_modules), with real tsc and
 * vite: its builds take seconds where the service's take a minute, so the suite can build
 * several times. Its server answers with the generation it runs from, its console's page and a
 * worker process it forks from its own files, as the service's task workers and console are.
 */
const SERVER = `import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = 'one';
const here = path.dirname(fileURLToPath(import.meta.url));
const generation = path.dirname(here);
http
  .createServer((req, res) => {
    if (req.url === '/healthz') return res.end(JSON.stringify({ version: VERSION, generation }));
    if (req.url === '/app/') return res.end(readFileSync(path.join(generation, 'web', 'console', 'index.html')));
    const worker = fork(path.join(here, 'worker.js'));
    worker.on('message', (file) => res.end(JSON.stringify({ worker: file })));
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
`;
const WORKER = `import { fileURLToPath } from 'node:url';
process.send!(fileURLToPath(import.meta.url), () => process.exit(0));
`;
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'small', private: true, type: 'module' }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      outDir: 'dist',
      rootDir: '.',
      strict: true,
      skipLibCheck: true,
      types: ['node'],
    },
    include: ['src'],
  }),
  'src/main.ts': SERVER,
  'src/worker.ts': WORKER,
  'web/console/index.html':
    '<!doctype html><title>console</title><script type="module" src="./src/main.ts"></script>\n',
  'web/console/src/main.ts': "document.title = 'console';\n",
  'web/console/vite.config.ts':
    "export default { root: new URL('.', import.meta.url).pathname, base: '/app/', logLevel: 'warn' };\n",
  'web/console/tsconfig.json': JSON.stringify({
    compilerOptions: {
      target: 'es2022',
      lib: ['es2022', 'dom'],
      module: 'esnext',
      moduleResolution: 'bundler',
      noEmit: true,
      strict: true,
      skipLibCheck: true,
      types: [],
    },
    include: ['src', 'vite.config.ts'],
  }),
};

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

describe('Build once, start many: scripts/build on a small project (real tsc and vite)', function () {
  this.timeout(300_000);
  let project: string;
  const running: Started[] = [];

  before(async () => {
    project = await mkdtemp(path.join(os.tmpdir(), 'build-generations-'));
    for (const [name, text] of Object.entries(FILES)) {
      mkdirSync(path.dirname(path.join(project, name)), { recursive: true });
      writeFileSync(path.join(project, name), text);
    }
    cpSync(path.join(repoRoot, 'scripts', 'build'), path.join(project, 'scripts', 'build'), { recursive: true });
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(project, 'node_modules'));
  });
  after(async () => {
    for (const { child, exited } of running) {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    }
    await rm(project, { recursive: true, force: true });
  });

  /** `node scripts/build/run.mjs …`, as the npm scripts run it. */
  function launch(args: string[], env: Record<string, string> = {}): Started & { port: number } {
    const child = spawn(process.execPath, ['scripts/build/run.mjs', ...args], {
      cwd: project,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, port: Number(env.PORT ?? 0), output: () => output, exited };
  }
  async function start(): Promise<Started> {
    const port = await freePort();
    const started = launch(['node', 'src/main.js'], { PORT: String(port) });
    running.push(started);
    await get(started, '/healthz');
    return started;
  }
  async function get(started: Started, route: string): Promise<string> {
    for (let i = 0; i < 1500; i++) {
      if (started.child.exitCode !== null) throw new Error(`exited ${started.child.exitCode}: ${started.output()}`);
      try {
        const res = await fetch(`http://127.0.0.1:${started.port}${route}`);
        if (res.ok) return await res.text();
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no answer on ${route}: ${started.output()}`);
  }
  const health = async (s: Started) => JSON.parse(await get(s, '/healthz')) as { version: string; generation: string };
  const generations = () => readdirSync(path.join(project, 'build')).filter((n) => /^\d{8}T/.test(n));
  const builds = (s: Started) => (s.output().match(/^build: building /gm) ?? []).length;
  const build = async () => {
    const done = launch(['build']);
    return { code: await done.exited, output: done.output() };
  };
  const edit = (from: string, to: string) => {
    const file = path.join(project, 'src', 'main.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
  };

  let first: Started[];
  let oldGeneration: string;

  it('three starts at once on a project never built: one build, and all three run from it', async () => {
    first = await Promise.all([start(), start(), start()]);
    expect(generations()).to.have.length(1);
    expect(first.map(builds).reduce((a, b) => a + b)).to.equal(1);
    const seen = await Promise.all(first.map(health));
    oldGeneration = seen[0]!.generation;
    expect(path.basename(oldGeneration)).to.equal(generations()[0]);
    for (const s of seen) expect(s).to.deep.equal({ version: 'one', generation: oldGeneration });
    expect(readdirSync(path.join(project, 'build', 'running')).sort()).to.deep.equal(
      first.map((s) => String(s.child.pid)).sort(),
    );
  });

  it('after a source changes, the next start builds a new generation aside; the running ones keep their files, console and workers', async () => {
    edit("const VERSION = 'one';", "const VERSION = 'two';");
    const next = await start();
    expect(builds(next)).to.equal(1);
    expect(generations()).to.have.length(2);
    const now = await health(next);
    expect(now.version).to.equal('two');
    expect(now.generation).to.not.equal(oldGeneration);
    expect(realpathSync(path.join(project, 'build', 'current'))).to.equal(now.generation);
    for (const s of first) {
      expect(await health(s)).to.deep.equal({ version: 'one', generation: oldGeneration });
      expect(await get(s, '/app/')).to.include('<title>console</title>');
      const worker = JSON.parse(await get(s, '/work')).worker as string;
      expect(worker).to.equal(path.join(oldGeneration, 'src', 'worker.js'));
    }
    expect(JSON.parse(await get(next, '/work')).worker).to.equal(path.join(now.generation, 'src', 'worker.js'));
  });

  it('sources as they were built: no build', async () => {
    const again = await start();
    expect(builds(again)).to.equal(0);
    expect((await health(again)).version).to.equal('two');
    expect(generations()).to.have.length(2);
  });

  it('a build that fails changes nothing: build/current and the running processes stay as they were', async () => {
    const current = readFileSync(path.join(project, 'build', 'current', 'BUILD.json'), 'utf8');
    edit("const VERSION = 'two';", "const VERSION: number = 'three';");
    const failed = await build();
    expect(failed.code).to.equal(1);
    expect(failed.output).to.match(/tsc .* failed/);
    expect(readFileSync(path.join(project, 'build', 'current', 'BUILD.json'), 'utf8')).to.equal(current);
    expect(readdirSync(path.join(project, 'build')).filter((n) => n.startsWith('.'))).to.deep.equal([]);
    expect(generations()).to.have.length(2);
    expect(await health(first[0]!)).to.deep.equal({ version: 'one', generation: oldGeneration });
    edit("const VERSION: number = 'three';", "const VERSION = 'two';");
  });

  it('an old generation is removed only once no live process runs from it', async () => {
    // Retired long enough ago: only the processes holding it keep it.
    const retired = path.join(oldGeneration, 'RETIRED');
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(retired, hourAgo, hourAgo);
    expect((await build()).code).to.equal(0);
    expect(existsSync(oldGeneration), 'kept while three processes run from it').to.equal(true);
    for (const s of first) {
      s.child.kill('SIGTERM');
      await s.exited;
    }
    expect((await build()).code).to.equal(0);
    expect(existsSync(oldGeneration), 'removed once none does').to.equal(false);
    expect(generations()).to.have.length(1);
  });
});
