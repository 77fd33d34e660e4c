import * as t from 'io-ts';
import type { PeppolReporting } from '../../../application/reporting/peppolReports.js';
import {
  PEPPOL_REPORT_KINDS,
  type PeppolReportKind,
  type PeppolReportSubmission,
} from '../../../application/reporting/peppolReportSubmission.js';
import { invalid } from '../../../domain/errors.js';
import { reportPeriod } from '../../../domain/reporting/peppolReporting.js';
import { commandMetadata } from '../../requestContext.js';
import { OPERATOR } from '../../../application/actor.js';
import { decode } from '../../codecs.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { PeppolReportsAnswer, ReportSubmissionAnswer, ReportSubmissionsAnswer } from '../../codecs/peppolAnswers.js';

const ReportQuery = t.intersection([
  t.type({ month: t.string }),
  t.partial({ as_of: t.string, report: t.keyof({ tsr: null, eusr: null }) }),
]);

const MonthBody = t.type({ month: t.string });
const MonthQuery = t.type({ month: t.string });

const monthOf = (month: string, loc: string[]): string => {
  if (!reportPeriod(month)) throw invalid('month must be a calendar month YYYY-MM', loc);
  return month;
};
const reportOf = (report: string): PeppolReportKind => {
  if (!(PEPPOL_REPORT_KINDS as readonly string[]).includes(report))
    throw invalid('report must be tsr or eusr', ['path', 'report']);
  return report as PeppolReportKind;
};

/** The access point's monthly OpenPeppol reports, and their submission to OpenPeppol, for the operator. */
export function peppolReportRoutes(
  routes: RouteRegistry,
  reporting: PeppolReporting,
  submission: PeppolReportSubmission,
): void {
  routes.add({
    method: 'get',
    path: '/api/operator/reports/peppol/submissions',
    summary:
      "Where a month's two reports stand on their way to OpenPeppol (the reporting receiver): for tsr and eusr, null when not submitted, else {status: PENDING, SENT or FAILED, receiver, message_id, queued_at, delivered_at, failure_reason, next_attempt_at, deliveries: [{delivery_id, message_id, requested_at, requested_by, attempts: [{attempt, started_at, duration_ms, outcome, error, endpoint_url, remote_ap, receipt_received_at}]}]}. The monthly job submits the previous month on the 1st.",
    tag: 'operator',
    auth: 'operator',
    query: MonthQuery,
    responses: { 200: '{month, prepared, tsr, eusr}', 422: 'A bad month' },
    answer: ReportSubmissionsAnswer,
    handler: async (req, _res, answer) => {
      const month = monthOf(decode(MonthQuery, req.query, 'query').month, ['query', 'month']);
      answer({ month, prepared: await reporting.prepared(month), ...(await submission.status(month)) });
    },
  });
  routes.add({
    method: 'post',
    path: '/api/operator/reports/peppol/submissions',
    summary:
      "Submit a month's reports now (what the monthly job does on the 1st): prepared as of now unless they were already, then each sent once; asked again, nothing more is sent (use resend). Body: {month: YYYY-MM}",
    tag: 'operator',
    auth: 'operator',
    body: MonthBody,
    responses: {
      200: '{month, prepared, tsr, eusr}',
      409: 'This access point has no AS4 identity',
      422: 'A bad month',
    },
    answer: ReportSubmissionsAnswer,
    handler: async (req, res, answer) => {
      const month = monthOf(decode(MonthBody, req.body, 'body').month, ['body', 'month']);
      const prepared = await reporting.prepareAndSubmit(month, new Date(), commandMetadata(req, res).actor ?? OPERATOR);
      answer({ month, prepared, ...(await submission.status(month)) });
    },
  });
  routes.add({
    method: 'post',
    path: '/api/operator/reports/peppol/submissions/:month/:report/resend',
    summary:
      'Send a report (tsr or eusr) of a month again, as a new transmission with a new message id, when it is SENT or FAILED',
    tag: 'operator',
    auth: 'operator',
    responses: {
      200: 'The report submission',
      404: 'The report of that month was not submitted',
      409: 'It is being delivered',
      422: 'A bad month or report',
    },
    answer: ReportSubmissionAnswer,
    handler: async (req, res, answer) => {
      const month = monthOf(String(req.params.month), ['path', 'month']);
      const report = reportOf(String(req.params.report));
      answer(await submission.resend(month, report, commandMetadata(req, res)));
    },
  });
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
