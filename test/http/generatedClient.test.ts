import { expect } from 'chai';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { startTestService, type TestService } from '../support/service.js';
import type { OpenApiDocument } from '../support/openApiSchemas.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The calls, written against the generated types (not compiled with the project: the types do not exist before this test). */
const CALLS = path.join(ROOT, 'test/openapi-client/calls.ts');
/** Inside the repository, so that the compiler finds openapi-fetch in node_modules; dist/ is build output. */
const WORK = path.join(ROOT, 'dist/openapi-client');

/** Compiles the files and answers the compiler's messages (none: it type-checks). */
function typeCheck(files: string[]): string[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: `
      : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
}

/**
 * A client generated from the service's own /api/openapi.json by a standard generator
 * (openapi-typescript), used through openapi-fetch: calls to every route, reading fields of their
 * answers, type-check against it; and a call the document does not allow does not.
 */
describe('A client generated from /api/openapi.json (openapi-typescript, openapi-fetch) type-checks against calls to every route', function () {
  this.timeout(180_000);
  let t: TestService;
  let document: OpenApiDocument;
  let calls: string;

  before(async () => {
    t = await startTestService();
    document = (await t.http.get('/api/openapi.json')).body as OpenApiDocument;
    calls = await readFile(CALLS, 'utf8');
    await mkdir(WORK, { recursive: true });
    const generated = astToString(await openapiTS(document as unknown as Parameters<typeof openapiTS>[0]));
    await writeFile(path.join(WORK, 'schema.d.ts'), generated);
    await writeFile(path.join(WORK, 'package.json'), '{"type": "module"}\n');
  });
  after(async () => {
    await t?.stop();
    await rm(WORK, { recursive: true, force: true });
  });

  it('the calls name every route of the document, with its method', () => {
    const called = new Set(
      [...calls.matchAll(/client\.(GET|POST|PUT|DELETE)\(\s*'([^']+)'/g)].map((m) => `${m[1]!.toLowerCase()} ${m[2]}`),
    );
    const documented = Object.entries(document.paths).flatMap(([p, operations]) =>
      Object.keys(operations).map((method) => `${method} ${p}`),
    );
    expect(documented.length).to.be.greaterThan(60);
    expect(
      documented.filter((route) => !called.has(route)),
      'routes test/openapi-client/calls.ts does not call',
    ).to.deep.equal([]);
  });

  it('compile against the generated types, answers read as their schemas say', async () => {
    await writeFile(path.join(WORK, 'calls.ts'), calls);
    expect(typeCheck([path.join(WORK, 'calls.ts')])).to.deep.equal([]);
  });

  it('and a call or a read the document does not allow fails to compile', async () => {
    const wrong = [
      calls,
      'export async function wrong(): Promise<void> {',
      "  await client.GET('/api/documents/{documentId}', { params: { path: {} } });",
      "  const made = await client.POST('/api/webhooks', { body: { url: 'https://example.com', events: [] } });",
      '  const secret: number | undefined = made.data?.secret;',
      '  void secret;',
      "  await client.GET('/api/no-such-route');",
      '}',
    ].join('\n');
    await writeFile(path.join(WORK, 'wrong.ts'), wrong);
    const errors = typeCheck([path.join(WORK, 'wrong.ts')]).join('\n');
    const base = calls.split('\n').length;
    // A path parameter left out; a field read as a number that the schema says is a string; a route that does not exist.
    for (const line of [base + 2, base + 4, base + 6]) expect(errors, errors).to.include(`wrong.ts:${line}:`);
    expect(errors).to.match(/Type 'string' is not assignable to type 'number'/);
  });
});
