import express, { type Router } from 'express';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * web/console of the compiled tree this file belongs to: a build generation's (build/<id>/, made
 * by `npm run build` and every npm script that needs it), so a process serves the console of its
 * own build; in a developer's dist/, `npm run build:console` writes it.
 */
export const CONSOLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/console');

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>The web console is not built</h1>
<p>This service serves its console from the <code>web/console</code> folder of the build it runs from, which is missing.
Run <code>npm run build</code> (it builds the API and the console into <code>build/</code>) and start the service
with <code>npm start</code>; a developer's <code>dist/</code> gets it from <code>npm run build:console</code>.</p>
</body></html>`;

/**
 * The web console at /app: the static files vite built, and index.html for every other path
 * under /app (the console's own routes, such as /app/documents/…). It uses only the public API.
 * Without a built console, /app answers 503 with a page that says how to build it.
 */
export function consoleApp(dir: string = CONSOLE_DIR): Router {
  const router = express.Router();
  const index = path.join(dir, 'index.html');
  const built = () => existsSync(index);
  router.use('/app', (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!built()) {
      res.status(503).type('html').setHeader('Cache-Control', 'no-store').send(NOT_BUILT);
      return;
    }
    next();
  });
  router.use(
    '/app',
    express.static(dir, {
      index: 'index.html',
      fallthrough: true,
      // Hashed asset names change with their content; index.html is read afresh.
      setHeaders: (res, file) =>
        res.setHeader(
          'Cache-Control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        ),
    }),
  );
  router.get(/^\/app(\/.*)?$/, (req, res, next) => {
    // A missing asset is a 404, not the page: only paths without an extension are the console's routes.
    if (/\.[a-z0-9]+$/i.test(req.path)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
