import fs from 'node:fs';
import path from 'node:path';
import Router from '@koa/router';
import { absolutePath } from 'swagger-ui-dist';
import type { Store } from '../db/database.js';
import { migrationsCurrent } from '../db/migrator.js';
import type { OpenApiDocument } from './contract.js';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Lemma API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#reference', deepLinking: true });`;

/**
 * The contract as one JSON document, the API reference rendered from it by Swagger UI (served
 * from the installed package, no CDN), and the health probes.
 */
export function docsAndHealthRoutes(document: OpenApiDocument, store: Store): Router {
  const router = new Router();
  // Served with a relative server URL, so the reference's "try it" calls the node serving it.
  const json = JSON.stringify({ ...document, servers: [{ url: '/api/v1', description: 'This server' }] });
  const assetDir = absolutePath();

  router.get('/api/v1/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = json;
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'");
    ctx.body = DOCS_PAGE;
  });
  router.get('/docs/init.js', (ctx) => {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.body = DOCS_INIT;
  });
  router.get('/docs/assets/:file', (ctx) => {
    const type = ASSETS[ctx.params.file!];
    if (!type) return;
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = fs.createReadStream(path.join(assetDir, ctx.params.file!));
  });
  router.get('/healthz', (ctx) => {
    ctx.body = { data: { status: 'ok' } };
  });
  router.get('/readyz', async (ctx) => {
    let ready = false;
    let reason = 'database unreachable';
    try {
      ready = await migrationsCurrent(store.db);
      if (!ready) reason = 'migrations pending';
    } catch {
      ready = false;
    }
    ctx.status = ready ? 200 : 503;
    ctx.body = ready ? { data: { status: 'ready' } } : { error: { code: 'NOT_READY', message: reason, details: {} } };
  });
  return router;
}
