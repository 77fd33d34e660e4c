import { expect } from 'chai';
import express from 'express';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { consoleApp } from '../../../src/http/console/consoleApp.js';
import { startTestService, type TestService } from '../../support/service.js';

describe('The web console at /app (served by the service)', function () {
  let t: TestService;

  before(async () => {
    t = await startTestService();
  });
  after(async () => t?.stop());

  it('answers the built console at /app, without credentials', async () => {
    const res = await t.http.get('/app/');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/text\/html/);
    expect(res.text).to.contain('<div id="root">');
    expect(res.text, 'assets under /app/').to.match(/src="\/app\/assets\/[^"]+\.js"/);
  });

  it("answers index.html for the console's own routes, so a reload or a shared link works", async () => {
    const bare = await t.http.get('/app');
    expect(bare.status, '/app goes to /app/').to.equal(301);
    expect(bare.headers.location).to.equal('/app/');
    for (const route of ['/app/inbox', '/app/documents/6d1f3c4e-1111-4222-8333-444455556666']) {
      const res = await t.http.get(route);
      expect(res.status, route).to.equal(200);
      expect(res.text, route).to.contain('<div id="root">');
    }
  });

  it('serves the hashed assets with a long cache, and a missing asset is a 404 rather than the page', async () => {
    const index = await t.http.get('/app/');
    const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(index.text)![1]!;
    const asset = await t.http.get(script);
    expect(asset.status).to.equal(200);
    expect(asset.headers['content-type']).to.match(/javascript/);
    expect(asset.headers['cache-control']).to.contain('immutable');
    expect(index.headers['cache-control']).to.equal('no-cache');
    const missing = await t.http.get('/app/assets/nothing-here.js');
    expect(missing.status).to.equal(404);
    expect(missing.body.detail).to.be.a('string');
  });

  it('leaves the API alone: /api answers as before', async () => {
    expect((await t.http.get('/api/me')).status).to.equal(401);
  });

  it('without a built console, /app answers 503 with a page saying to run npm run build', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'console-missing-'));
    try {
      const app = express().use(consoleApp(empty));
      for (const route of ['/app', '/app/', '/app/outbox']) {
        const res = await supertest(app).get(route);
        expect(res.status, route).to.equal(503);
        expect(res.headers['content-type']).to.match(/text\/html/);
        expect(res.text).to.contain('npm run build');
      }
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
