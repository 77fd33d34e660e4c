import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startTestService, type TestService } from '../support/service.js';

type Operation = {
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  parameters: Array<{ in: string; name: string }>;
};
type Layer = {
  route?: { path: string | RegExp | Array<string | RegExp>; methods: Record<string, boolean> };
  name?: string;
  handle?: { stack?: Layer[] };
};

/** A value for each path parameter that reaches its route's handler (the SMP routes match only their scheme). */
const PARAM_VALUES: Record<string, string> = {
  participant: 'iso6523-actorid-upis::0208:0000000097',
  documentType: 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice',
  asset: 'swagger-ui.css',
};
const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';

/** The web console's own pages (/app and below): HTML for the browser, not part of the API. */
const CONSOLE_PAGES = String(/^\/app(\/.*)?$/);

/** Express's own routes, read from the app's router stack (routers mounted at the root walked into). */
function servedRoutes(stack: Layer[]): string[] {
  const served: string[] = [];
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const p of paths.filter((p) => String(p) !== CONSOLE_PAGES))
        for (const method of Object.keys(layer.route.methods).filter((m) => m !== '_all'))
          served.push(`${method.toUpperCase()} ${String(p).replace(/:([A-Za-z_]+)/g, '{$1}')}`);
    } else if (layer.name === 'router' && layer.handle?.stack) {
      served.push(...servedRoutes(layer.handle.stack));
    }
  }
  return served;
}

describe('API reference: /api/openapi.json matches the routes, /docs serves it, GET / points the way', function () {
  let t: TestService;
  let doc: { openapi: string; paths: Record<string, Record<string, Operation>> };

  before(async () => {
    t = await startTestService();
    doc = (await t.http.get('/api/openapi.json')).body;
  });
  after(async () => t?.stop());

  const documented = () =>
    Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));

  it('every route Express serves is documented, and every documented route is served', () => {
    const app = t.service.app as unknown as { router: { stack: Layer[] } };
    const served = servedRoutes(app.router.stack);
    expect(served.length).to.be.greaterThan(50);
    expect(new Set(served).size, 'no route is registered twice').to.equal(served.length);
    expect([...documented()].sort()).to.deep.equal([...served].sort());
  });

  it('every documented operation, requested, reaches a route (none is the 404 of an unknown route)', async () => {
    // The unknown-route answer, to tell it apart.
    const unknown = await t.http.get('/api/no-such-route');
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.deep.equal({ detail: 'Not Found' });
    const reached: string[] = [];
    for (const [template, ops] of Object.entries(doc.paths)) {
      const url = template.replace(/\{([A-Za-z_]+)\}/g, (_m, name: string) =>
        encodeURIComponent(PARAM_VALUES[name] ?? PLACEHOLDER_ID),
      );
      for (const method of Object.keys(ops)) {
        const res = await t.http[method as 'get' | 'post' | 'put' | 'delete'](url);
        const isUnknownRoute =
          res.status === 404 && JSON.stringify(res.body) === JSON.stringify({ detail: 'Not Found' });
        expect(isUnknownRoute, `${method.toUpperCase()} ${url} answered as an unknown route`).to.equal(false);
        expect(res.status, `${method.toUpperCase()} ${url}`).to.be.lessThan(500);
        reached.push(`${method} ${template}`);
      }
    }
    expect(reached.length).to.equal(documented().length);
  });

  it("is generated from the routes' own codecs: bodies and queries carry their schemas", () => {
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (method === 'post' || method === 'put') {
          // Every body-taking route says what it takes (JSON schema, or the upload's media types).
          const bodiless = [
            '/send',
            '/validate',
            '/unregister',
            '/keys',
            '/as4',
            '/cancel',
            '/test',
            '/resend',
            '/checkpoints',
          ].some((end) => p.endsWith(end));
          if (!bodiless)
            expect(op.requestBody, `${method.toUpperCase()} ${p} documents its body`).to.not.equal(undefined);
        }
      }
    }
    // The document body is the decoder's codec, field by field.
    const create = doc.paths['/api/documents']!.post!.requestBody!.content['application/json']!.schema;
    const props = create.properties as Record<string, Record<string, unknown>>;
    expect(props).to.include.keys('invoice_id', 'items', 'customer_peppol_id', 'currency', 'payment_details');
    expect((props.items!.items as { properties: object }).properties).to.include.keys(
      'description',
      'quantity',
      'unit_price',
      'tax_rate',
    );
    expect(doc.paths['/api/validate/json']!.post!.requestBody!.content['application/json']!.schema).to.deep.equal(
      create,
    );
    // Uploads say their media types.
    expect(doc.paths['/api/documents/ubl']!.post!.requestBody!.content).to.include.keys(
      'multipart/form-data',
      'application/xml',
    );
    expect(doc.paths['/api/documents/pdf']!.post!.requestBody!.content).to.include.keys('multipart/form-data');
    // List filters come from the query codec.
    const inboxParams = doc.paths['/api/inbox']!.get!.parameters.filter((q) => q.in === 'query').map((q) => q.name);
    expect(inboxParams).to.include.members(['page', 'page_size', 'state', 'sort_by', 'sort_order', 'search']);
  });

  it('GET /docs serves the interactive reference from this service, viewer files included (no CDN)', async () => {
    const page = await t.http.get('/docs').set('Accept', 'text/html');
    expect(page.status).to.equal(200);
    expect(page.headers['content-type']).to.match(/^text\/html/);
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources).to.include.members(['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/api/openapi.json']);
    expect(
      sources.filter((s) => /^(https?:)?\/\//.test(s)),
      'nothing from another host',
    ).to.deep.equal([]);
    const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
      const res = await t.http.get(`/docs/${file}`).buffer(true);
      expect(res.status, file).to.equal(200);
      const body = Buffer.isBuffer(res.body) ? res.body : Buffer.from(res.text);
      expect(body.equals(await readFile(path.join(swaggerDir, file))), `${file} is swagger-ui-dist's`).to.equal(true);
    }
    const init = await t.http.get('/docs/swagger-initializer.js');
    expect(init.text).to.include("url: '/api/openapi.json'");
    // Only the viewer's files: nothing else of node_modules, no path tricks.
    for (const bad of ['package.json', 'index.html', '..%2Fpackage.json', '%2e%2e%2f%2e%2e%2fpackage.json'])
      expect((await t.http.get(`/docs/${bad}`)).status, bad).to.equal(404);
  });

  it('GET / answers a browser with HTML linking /docs, /app and /healthz, and an API client with JSON', async () => {
    const html = await t.http.get('/').set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(html.status).to.equal(200);
    expect(html.headers['content-type']).to.match(/^text\/html/);
    expect(html.headers.vary).to.match(/Accept/);
    for (const href of ['/docs', '/app', '/healthz']) expect(html.text).to.include(`href="${href}"`);

    for (const accept of ['application/json', '*/*']) {
      const json = await t.http.get('/').set('Accept', accept);
      expect(json.headers['content-type']).to.match(/^application\/json/);
      const links = (json.body.links as Array<{ rel: string; href: string }>).map((l) => l.href);
      expect(links).to.include.members(['/docs', '/app', '/healthz', '/api/openapi.json']);
      // Each link but the console (served by its own part) answers.
      for (const href of links.filter((h) => h !== '/app')) expect((await t.http.get(href)).status, href).to.equal(200);
    }
  });
});
