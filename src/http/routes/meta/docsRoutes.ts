import { createRequire } from 'node:module';
import path from 'node:path';
import type { RouteRegistry } from '../../routeRegistry.js';
import { HomeAnswer } from '../../codecs/peppolAnswers.js';

/** swagger-ui-dist's folder: its files are served from here, never from a CDN. */
const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
/** The viewer's files the reference page loads; nothing else of the package is served. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};
/** Starts the viewer on this service's OpenAPI document (a file, not an inline script). */
const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    tryItOutEnabled: false,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
};
`;

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Invoicing service: API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
<style>body { margin: 0; } .intro { font: 14px/1.5 system-ui, sans-serif; padding: 12px 20px; background: #f4f6f8; border-bottom: 1px solid #dde2e6; } .intro a { color: #0b57d0; }</style>
</head>
<body>
<p class="intro">Invoicing service API reference. "Authorize" with a tenant, organization or operator key to try a route.
The raw <a href="/api/openapi.json">OpenAPI 3.1 document</a>; the <a href="/app">web console</a>; <a href="/">home</a>.</p>
<div id="swagger-ui"><noscript>The interactive reference needs JavaScript; the document itself is <a href="/api/openapi.json">/api/openapi.json</a>.</noscript></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-initializer.js"></script>
</body>
</html>
`;

const LINKS = [
  { rel: 'docs', href: '/docs', title: 'Interactive API reference' },
  { rel: 'openapi', href: '/api/openapi.json', title: 'OpenAPI 3.1 document' },
  { rel: 'app', href: '/app', title: 'Web console (sign in with an API key)' },
  { rel: 'health', href: '/healthz', title: 'Liveness' },
  { rel: 'ready', href: '/readyz', title: 'Readiness' },
];

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function homePage(version: string): string {
  const items = LINKS.map(
    (l) => `<li><a href="${l.href}">${escapeHtml(l.title)}</a> <code>${escapeHtml(l.href)}</code></li>`,
  ).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Invoicing service</title>
<style>body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; color: #1f2328; } a { color: #0b57d0; } code { color: #57606a; }</style>
</head>
<body>
<main>
<h1>Invoicing service</h1>
<p>A Peppol e-invoicing service: create, validate, send and receive invoices and credit notes as UBL
Peppol BIS Billing 3.0, over an HTTP JSON API. Version ${escapeHtml(version)}.</p>
<ul>
${items}
</ul>
</main>
</body>
</html>
`;
}

/** `GET /` (where to go: HTML for a browser, JSON for an API client) and the reference at `/docs`. */
export function docsRoutes(routes: RouteRegistry, version: string): void {
  routes.add({
    method: 'get',
    path: '/',
    summary: 'Where to go: the API reference, the web console, health (HTML for a browser, JSON otherwise)',
    tag: 'meta',
    auth: 'none',
    responses: { 200: 'Links to /docs, /app, /healthz and the OpenAPI document' },
    answer: HomeAnswer,
    media: { 'text/html': 'The same links as a page, for a browser' },
    handler: (req, res, answer) => {
      res.vary('Accept');
      if (req.accepts(['json', 'html']) === 'html') {
        res.type('html').send(homePage(version));
      } else {
        answer({ name: 'Invoicing service', version, links: LINKS });
      }
    },
  });
  routes.add({
    method: 'get',
    path: '/docs',
    summary: 'Interactive API reference (Swagger UI, served from this service)',
    tag: 'meta',
    auth: 'none',
    responses: { 200: 'An HTML page' },
    media: { 'text/html': 'Swagger UI' },
    handler: (_req, res) => {
      res.type('html').send(DOCS_PAGE);
    },
  });
  routes.add({
    method: 'get',
    path: '/docs/:asset',
    summary: "The reference viewer's files (swagger-ui-dist)",
    tag: 'meta',
    auth: 'none',
    responses: { 200: 'The file', 404: 'No such file' },
    media: { 'text/javascript': 'A script of the viewer', 'text/css': 'A stylesheet of the viewer' },
    handler: (req, res) => {
      const asset = String(req.params.asset);
      if (asset === 'swagger-initializer.js') {
        res.type('text/javascript; charset=utf-8').send(INITIALIZER);
        return;
      }
      const type = Object.hasOwn(ASSETS, asset) ? ASSETS[asset] : undefined;
      if (!type) {
        res.status(404).json({ detail: 'Not Found' });
        return;
      }
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.type(type).sendFile(path.join(SWAGGER_UI_DIR, asset));
    },
  });
}
