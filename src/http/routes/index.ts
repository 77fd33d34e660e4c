import type { HttpDependencies } from '../dependencies.js';
import type { RouteRegistry } from '../routeRegistry.js';
import { healthRoutes } from './health/healthRoutes.js';
import { docsRoutes } from './meta/docsRoutes.js';
import { operatorRoutes } from './accounts/operatorRoutes.js';
import { adminRoutes } from './accounts/adminRoutes.js';
import { meRoutes } from './accounts/meRoutes.js';
import { peppolAdminRoutes } from './peppol/peppolAdminRoutes.js';
import { lookupRoutes } from './peppol/lookupRoutes.js';
import { smpRoutes } from './peppol/smpRoutes.js';
import { as4Routes } from './peppol/as4Routes.js';
import { documentRoutes } from './documents/documentRoutes.js';
import { ublRoutes } from './documents/ublRoutes.js';
import { attachmentRoutes } from './documents/attachmentRoutes.js';
import { documentPdfRoutes } from './documents/pdfRoutes.js';
import { validateRoutes } from './documents/validateRoutes.js';
import { sendingRoutes } from './documents/sendingRoutes.js';
import { documentPageRoute } from './documents/documentPages.js';
import { outboxRoutes } from './outbox/outboxRoutes.js';
import { inboxRoutes } from './inbox/inboxRoutes.js';
import { webhookRoutes } from './webhooks/webhookRoutes.js';
import { statsRoutes } from './stats/statsRoutes.js';
import { peppolReportRoutes } from './reporting/peppolReportRoutes.js';
import { asOfReader } from '../asOf.js';
import { erasureRoutes } from './accounts/erasureRoutes.js';
import { historyRoutes } from './history/historyRoutes.js';

/**
 * Every route of the API, by resource (one folder each). Express tries routes in this order, so
 * literal paths come before the parameters that would take them (`/api/inbox/invoices` before
 * `/api/inbox/:documentId`); the OpenAPI document lists them in this order too.
 */
export function registerRoutes(
  routes: RouteRegistry,
  deps: HttpDependencies,
  readYourWrites: () => Promise<void>,
): void {
  // `as_of` on the document reads, their history, the lists and the stats.
  const asOf = asOfReader(deps.asOfMoments, deps.readModels);
  healthRoutes(routes, deps.operations);
  // `GET /` and the interactive reference at /docs.
  docsRoutes(routes, deps.version);

  // Accounts: the operator's, the resellers' (tenants and their keys), the tenant's own.
  operatorRoutes(routes, deps.accounts, deps.operatorQueries, readYourWrites);
  erasureRoutes(routes, deps.erasure, readYourWrites);
  adminRoutes(routes, deps.accounts, deps.accountQueries, readYourWrites, (organizationId, tenantId, metadata) =>
    deps.peppol.registrations.unregisterIfRegistered(organizationId, tenantId, metadata),
  );
  meRoutes(routes, deps.accountQueries);

  // Peppol: registration of tenants, lookups and search, and this instance's SMP.
  peppolAdminRoutes(routes, deps.peppol.registrations);
  lookupRoutes(routes, deps.peppol.lookup, deps.peppol.search, readYourWrites, deps.version);
  // The SMP's participant routes match only `iso6523-actorid-upis::…` segments, so they shadow nothing.
  smpRoutes(routes, deps.peppol.smp);
  // This access point's AS4 endpoint: authenticated by the message's signature, not an API key.
  as4Routes(routes, deps.peppol.as4, deps.peppol.as4MaxMessageBytes);

  // Documents: create, read, delete; their UBL, attachments and PDF; validation; sending.
  documentRoutes(routes, deps.documents, deps.documentQueries, readYourWrites, deps.uploadBodyLimit, {
    history: deps.documentHistory,
    asOf,
  });
  ublRoutes(routes, deps.documents);
  attachmentRoutes(routes, deps.documents, deps.documentQueries, readYourWrites, deps.uploadBodyLimit);
  documentPdfRoutes(routes, deps.documents, deps.documentPdfs, deps.uploadBodyLimit);
  validateRoutes(routes, deps.documents, deps.uploadBodyLimit, deps.ruleSetClock);
  sendingRoutes(routes, deps.sending, deps.documentHistory, asOf, deps.evidenceBundles);

  // The outbox and the inbox: paged lists of documents, and the buyer's answers.
  const page = documentPageRoute(routes, deps.documentQueries, readYourWrites, asOf);
  outboxRoutes(page);
  inboxRoutes(routes, page, deps.inbox, deps.documentQueries, readYourWrites, {
    history: deps.documentHistory,
    asOf,
  });

  webhookRoutes(routes, deps.webhooks, readYourWrites, deps.webhookTests);
  statsRoutes(routes, deps.documentStats, readYourWrites, asOf);
  peppolReportRoutes(routes, deps.peppolReporting, deps.peppolReportSubmission);
  historyRoutes(routes, deps.history);
}
