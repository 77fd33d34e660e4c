import { existsSync, writeFileSync } from 'node:fs';

/*
 * A task worker that dies as a test tells it, through DYING_WORKER in the environment the pool
 * passes on: `once` dies at start the first time (DYING_WORKER_MARKER marks that it did), as a
 * worker started while its files were missing did; `always` dies at start every time; `heap`
 * takes the task and then allocates until V8 aborts it over its heap limit. Otherwise, and after
 * dying once, it is the real worker (composition/taskProcess.ts).
 */
const mode = process.env.DYING_WORKER;
const marker = process.env.DYING_WORKER_MARKER;
if (mode === 'always' || (mode === 'once' && marker && !existsSync(marker))) {
  if (marker) writeFileSync(marker, String(process.pid));
  process.stderr.write('Error: this worker was told to die at start\n');
  process.exit(3);
}
if (mode === 'heap') {
  process.on('message', () => {
    const hoard: number[][] = [];
    for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => i * Math.random()));
  });
} else await import('../../src/composition/taskProcess.js');
