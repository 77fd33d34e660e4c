import * as t from 'io-ts';
import type { PeppolReporting } from '../../../application/reporting/peppolReports.js';
import { decode } from '../../codecs.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { PeppolReportsAnswer } from '../../codecs/peppolAnswers.js';

const ReportQuery = t.intersection([
  t.type({ month: t.string }),
  t.partial({ as_of: t.string, report: t.keyof({ tsr: null, eusr: null }) }),
]);

/** The access point's monthly OpenPeppol reports, for the operator. */
export function peppolReportRoutes(routes: RouteRegistry, reporting: PeppolReporting): void {
  routes.add({
    method: 'get',
    path: '/api/operator/reports/peppol',
    summary:
      "The OpenPeppol Transaction Statistics Report (TSR 1.0) and End User Statistics Report (EUSR 1.1) of a calendar month, from the event history. Query: month (YYYY-MM, required), as_of (ISO 8601; default now: only events recorded up to it count, so a report is reproducible), report (tsr or eusr: that report's XML alone, application/xml). Answer: {month, as_of, reporter, tsr, eusr (the XML documents), tsr_sha256, eusr_sha256, incoming, outgoing, end_users, prepared (what the monthly job recorded for the month, or null)}",
    tag: 'operator',
    auth: 'operator',
    query: ReportQuery,
    responses: {
      200: 'The reports (JSON), or one report (XML)',
      409: 'This access point has no AS4 identity',
      422: 'A bad month or as_of',
    },
    answer: PeppolReportsAnswer,
    media: { 'application/xml': 'With report=tsr or eusr: that report alone' },
    handler: async (req, res, answer) => {
      const q = decode(ReportQuery, req.query, 'query');
      const reports = await reporting.reports(q.month, q.as_of ?? new Date().toISOString());
      if (q.report) {
        res.type('application/xml').send(reports[q.report]);
        return;
      }
      answer({ ...reports, prepared: await reporting.prepared(q.month) });
    },
  });
}
