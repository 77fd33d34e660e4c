import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { capturingLogger, startTestService, type TestService } from '../support/service.js';
import { accessPointSettings, makeTestPki, type TestPki } from '../support/testPki.js';
import { describeRequiring } from '../support/helperServer.js';
import { repoRoot } from '../support/repoRoot.js';

const RULES = path.join(repoRoot, 'deploy', 'prometheus', 'invoicing.rules.yml');
const RULE_TESTS = path.join(repoRoot, 'deploy', 'prometheus', 'invoicing.rules.test.yml');
const DASHBOARD = path.join(repoRoot, 'deploy', 'grafana', 'invoicing-dashboard.json');

/** PromQL's own words: functions, aggregations, keywords. */
const PROMQL = new Set(
  'sum min max avg count stddev stdvar topk bottomk quantile count_values group by without on ignoring group_left group_right and or unless bool offset time vector scalar rate irate increase delta idelta deriv histogram_quantile min_over_time max_over_time avg_over_time sum_over_time count_over_time last_over_time absent absent_over_time label_replace label_join clamp_min clamp_max abs ceil floor round sort sort_desc predict_linear changes resets timestamp inf nan'.split(
    ' ',
  ),
);
/** Series Prometheus makes itself for every scrape target. */
const PROMETHEUS_OWN = new Set(['up', 'scrape_duration_seconds', 'scrape_samples_scraped']);

/** The metric names a PromQL expression reads. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*(?=\s*(\(?))/g)) {
    const [word, call] = [match[0], match[1]];
    if (call === '(' || PROMQL.has(word) || /^\d/.test(word)) continue;
    names.add(word);
  }
  return [...names];
}

/** Every metric sample name /metrics can carry: the families' names and a histogram's _bucket, _sum, _count. */
function exported(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name!);
    if (type === 'histogram' || type === 'summary')
      for (const part of ['_bucket', '_sum', '_count']) names.add(name + part);
  }
  return names;
}

async function queries(): Promise<Array<{ where: string; expr: string }>> {
  const rules = [...(await readFile(RULES, 'utf8')).matchAll(/^\s*expr:\s*(.+)$/gm)].map((m, i) => ({
    where: `rule ${i + 1} of invoicing.rules.yml`,
    expr: m[1]!.trim(),
  }));
  const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as {
    panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
    templating: { list: Array<{ name: string; definition?: string }> };
  };
  const panels = dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ where: `panel "${panel.title}"`, expr: target.expr })),
  );
  const variables = dashboard.templating.list.map((v) => ({
    where: `variable ${v.name}`,
    expr: /^label_values\((\w+)/.exec(v.definition ?? '')?.[1] ?? '',
  }));
  return [...rules, ...panels, ...variables];
}

describe('Monitoring: deploy/prometheus and deploy/grafana read metrics the service exports (a real service, AS4 on)', function () {
  this.timeout(120_000);
  let pki: TestPki;
  let t: TestService;
  const log = capturingLogger('warn');

  before(async () => {
    pki = await makeTestPki({ instances: 1 });
    t = await startTestService({ peppol: accessPointSettings(pki, 1) }, undefined, { logger: log.logger });
  });
  after(async () => {
    await t?.stop();
    await pki?.dispose();
  });

  it('reads the metric names of a PromQL expression, not its functions, labels or keywords', () => {
    expect(
      metricNames(
        'sum by (instance, code) (increase(as4_messages_refused_total{code=~"EBMS:0101|x"}[1h])) / on (instance) group_left up > 0 and min(as4_certificate_expiry_timestamp_seconds) - time() < 30 * 86400',
      ),
    ).to.deep.equal(['as4_messages_refused_total', 'up', 'as4_certificate_expiry_timestamp_seconds']);
  });

  it("names in every alert rule, dashboard panel and variable only metrics of the service's /metrics", async () => {
    const res = await t.http.get('/metrics');
    expect(res.status).to.equal(200);
    const names = exported(res.text);
    const all = await queries();
    expect(all.length).to.be.greaterThan(20);
    const used = new Set<string>();
    for (const { where, expr } of all) {
      const read = metricNames(expr);
      expect(read, `${where} reads a metric: ${expr}`).to.not.be.empty;
      for (const name of read) {
        used.add(name);
        if (!PROMETHEUS_OWN.has(name))
          expect(names.has(name), `${where} reads ${name}, which /metrics has not`).to.equal(true);
      }
    }
    // What the issue asks to watch is watched.
    for (const name of [
      'document_delivery_attempts_total',
      'document_delivery_queue_depth',
      'projection_lag_events',
      'as4_messages_refused_total',
      'work_tasks_refused_total',
      'as4_certificate_expiry_timestamp_seconds',
    ])
      expect(used.has(name), name).to.equal(true);
  });

  it("exports this AP's certificate expiry and the build it runs", async () => {
    const text = (await t.http.get('/metrics')).text;
    const expiry = Number(/^as4_certificate_expiry_timestamp_seconds (\d+)$/m.exec(text)?.[1]);
    const certificate = await import('node:crypto').then(
      async ({ X509Certificate }) => new X509Certificate(await readFile(pki.instance(1).certificateFile)),
    );
    expect(expiry).to.equal(Math.floor(new Date(certificate.validTo).getTime() / 1000));
    expect(text).to.match(/^invoicing_build_info\{generation="[^"]+"\} 1$/m);
  });

  it('counts a refused AS4 message by its ebMS code, and logs it once, naming it and why', async () => {
    const before = (await t.http.get('/metrics')).text;
    const count = (text: string) =>
      [...text.matchAll(/^as4_messages_refused_total\{code="([^"]+)"\} (\d+)$/gm)].reduce(
        (sum, m) => sum + Number(m[2]),
        0,
      );
    log.records.length = 0;
    const refused = await t.http.post('/as4').set('Content-Type', 'application/soap+xml').send('<not-a-message/>');
    expect(refused.status).to.equal(200);
    const after = (await t.http.get('/metrics')).text;
    expect(count(after)).to.equal(count(before) + 1);
    const lines = log.records.filter((r) => r.component === 'as4-inbox');
    expect(lines, JSON.stringify(lines)).to.have.length(1);
    expect(lines[0]).to.include({ level: 40 });
    expect(lines[0]!.msg, String(lines[0]!.msg)).to.match(
      /^AS4 message \(no readable MessageId\) from \S+ refused: EBMS:0009: InvalidHeader: the root element is not a SOAP Envelope/,
    );
  });

  const promtool = process.env.PROMTOOL || '/usr/bin/promtool';
  describeRequiring(
    'Monitoring: promtool checks the alert rules and runs their unit tests',
    'promtool (Debian package prometheus)',
    existsSync(promtool)
      ? { kind: 'binary' }
      : { kind: 'none', why: `no promtool at ${promtool} (apt-get install prometheus)` },
    () =>
      describe('promtool', () => {
        it('finds the rules valid and their unit tests passing', async () => {
          const run = promisify(execFile);
          const checked = await run(promtool, ['check', 'rules', RULES]);
          expect(checked.stdout).to.match(/SUCCESS: \d+ rules found/);
          const tested = await run(promtool, ['test', 'rules', RULE_TESTS]);
          expect(tested.stdout).to.include('SUCCESS');
        });
      }),
  );
});
