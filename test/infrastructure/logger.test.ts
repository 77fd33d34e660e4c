import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const LOGGER = new URL('../../src/infrastructure/logger.js', import.meta.url).href;

/** What a process logging one line with createLogger(format) writes to its stdout (a pipe, not a terminal). */
async function logged(format: string): Promise<string> {
  const script = `const { createLogger } = await import(${JSON.stringify(LOGGER)});
createLogger('info', ${format}).warn({ document: 'doc-1' }, 'delivery of document doc-1 failed');`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
  });
  return stdout;
}

describe('createLogger: readable lines for people, JSON for machines', () => {
  it('LOG_FORMAT=pretty: time, level, message and fields on one line', async () => {
    expect(await logged("'pretty'")).to.match(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: delivery of document doc-1 failed \{"document":"doc-1"\}\n$/,
    );
  });

  it('LOG_FORMAT=json, and by default when stdout is not a terminal: one JSON object a line', async () => {
    for (const format of ["'json'", 'null']) {
      const line = JSON.parse(await logged(format)) as Record<string, unknown>;
      expect(line).to.include({
        level: 40,
        service: 'invoicing',
        document: 'doc-1',
        msg: 'delivery of document doc-1 failed',
      });
    }
  });
});
