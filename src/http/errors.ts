import type { ErrorRequestHandler, RequestHandler } from 'express';
import type * as t from 'io-ts';
import { DomainError } from '../domain/errors.js';

/** One entry of a 422 body, in the spec's (FastAPI-style) format. */
export interface FieldProblem {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** An error that already knows its HTTP status and `detail`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | FieldProblem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : 'Validation error');
    this.name = 'HttpError';
  }
}

export const unauthorized = (detail = 'Invalid authentication credentials') =>
  new HttpError(401, detail, { 'WWW-Authenticate': 'Bearer' });

/** At most this many problems are reported: enough to fix a request, never a response larger than it. */
const MAX_PROBLEMS = 50;

/** io-ts decode errors as 422 problems with the path of each offending field. */
export function problemsFromIoTs(errors: t.Errors, root: string): FieldProblem[] {
  const seen = new Set<string>();
  const problems: Array<FieldProblem & { key: string }> = [];
  for (const error of errors) {
    const loc: Array<string | number> = [root];
    error.context.forEach((entry, i) => {
      if (i === 0 || entry.key === '') return;
      const parent = error.context[i - 1]!.type as { _tag?: string };
      // Union and intersection members appear as "0", "1": they are not fields.
      if (parent._tag === 'UnionType' || parent._tag === 'IntersectionType') return;
      loc.push(/^\d+$/.test(entry.key) ? Number(entry.key) : entry.key);
    });
    const missing = error.value === undefined;
    const key = loc.join('\u0000');
    if (seen.has(key)) continue;
    seen.add(key);
    const expected = error.context[error.context.length - 1]?.type.name ?? 'value';
    problems.push({
      key,
      loc,
      msg: error.message ?? (missing ? 'Field required' : `Input should be ${expected}`),
      type: missing ? 'missing' : 'value_error',
    });
  }
  // A failed union reports every member; keep the most specific problem of each field (for a
  // nullable list, the bad element rather than "should be null"): drop a problem whose field has
  // a problem further in. Linear in the problems (a body of 10,000 bad elements was quadratic).
  const outer = new Set<string>();
  for (const p of problems) for (let i = 1; i < p.loc.length; i++) outer.add(p.loc.slice(0, i).join('\u0000'));
  return problems
    .filter((p) => !outer.has(p.key))
    .slice(0, MAX_PROBLEMS)
    .map(({ key: _key, ...problem }) => problem);
}

export const notFoundRoute: RequestHandler = (_req, _res, next) => next(new HttpError(404, 'Not Found'));

/** Maps every failure to the spec's error body; nothing escapes as an HTML page or a stack. */
export const errorMiddleware: ErrorRequestHandler = (error, req, res, _next) => {
  const { status, detail, headers } = toHttp(error);
  if (status >= 500) req.log?.error({ err: error }, 'request failed');
  else req.log?.info({ status, detail: typeof detail === 'string' ? detail : undefined }, 'request refused');
  if (res.headersSent) return;
  res.status(status).set(headers).json({ detail });
};

function toHttp(error: unknown): { status: number; detail: string | FieldProblem[]; headers: Record<string, string> } {
  if (error instanceof HttpError) return { status: error.status, detail: error.detail, headers: error.headers };
  if (error instanceof DomainError) {
    if (error.kind === 'invalid') {
      // 422 bodies are always a list of field problems, as the spec's error format says.
      return {
        status: 422,
        detail: [{ loc: error.loc ?? ['body'], msg: error.message, type: 'value_error' }],
        headers: {},
      };
    }
    const status = { not_found: 404, conflict: 409, invalid_state: 409, gone: 410 }[error.kind];
    return { status, detail: error.message, headers: {} };
  }
  const bodyError = error as { type?: string; status?: number; limit?: number };
  switch (bodyError.type) {
    case 'entity.parse.failed':
      return { status: 400, detail: 'Malformed JSON in request body', headers: {} };
    case 'entity.too.large':
      return { status: 413, detail: `Request body larger than the limit of ${bodyError.limit} bytes`, headers: {} };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, detail: 'Unsupported request body encoding', headers: {} };
    case 'request.aborted':
      return { status: 400, detail: 'Request aborted', headers: {} };
    default:
      if (typeof bodyError.status === 'number' && bodyError.status >= 400 && bodyError.status < 500) {
        return { status: bodyError.status, detail: (error as Error).message || 'Bad request', headers: {} };
      }
      return { status: 500, detail: 'Internal server error', headers: {} };
  }
}
