import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { IdempotencyStore } from '../application/ports/idempotencyStore.js';
import { tenantOf } from './auth.js';
import { HttpError } from './errors.js';
import { uploadedFile } from './uploads.js';

/** Keys as the IETF draft and the payment APIs use them: opaque, printable, at most 255 characters. */
const KEY = /^[\x21-\x7E]{1,255}$/;
const HEADER = 'Idempotency-Key';

/** Everything that makes two requests the same request: method, path, query, and the body as sent. */
function fingerprint(req: Request, body: Buffer | string): string {
  const hash = createHash('sha256');
  hash.update(`${req.method}\n${req.path}\n`);
  for (const [name, value] of Object.entries(req.query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    hash.update(`${name}=${JSON.stringify(value)}\n`);
  hash.update(body);
  return hash.digest('hex');
}

/** The request's body, read now if it is a multipart upload (the handler then finds it read). */
async function bodyOf(req: Request, res: Response, uploadLimit: number): Promise<Buffer | string> {
  if (/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) {
    const file = await uploadedFile(req, res, uploadLimit, /$^/);
    return Buffer.concat([
      Buffer.from(JSON.stringify({ fields: req.body ?? {}, name: file.fileName, type: file.mimeType })),
      file.buffer,
    ]);
  }
  if (Buffer.isBuffer(req.body) || typeof req.body === 'string') return req.body;
  return JSON.stringify(req.body ?? null);
}

/**
 * `Idempotency-Key` on the tenant's creating POSTs (create from JSON, UBL or PDF; send): the same
 * key with the same request answers the first result again (`Idempotent-Replayed: true`) and
 * records nothing new; with a different request it is a 422; while the first is still being
 * worked on, a 409. Results are kept (IDEMPOTENCY_KEY_TTL_HOURS) for every answer but 5xx and 429,
 * which mean nothing was done, so the key is free to be tried again.
 *
 * The claimed key and the request's fingerprint go with the events the request records
 * (commandMetadata: EventMetadata.idempotency). When the process dies between recording them and
 * keeping the result, the claim dies with it, and the retry's handler finds those events and
 * answers what they did (the document created, the send's result) instead of doing it again.
 */
export function idempotency(store: IdempotencyStore, uploadLimit: number): RequestHandler {
  return async (req, res, next) => {
    const key = req.get(HEADER);
    if (key === undefined) return next();
    if (!KEY.test(key)) {
      throw new HttpError(422, [
        {
          loc: ['header', HEADER],
          msg: 'Idempotency-Key should be 1 to 255 printable ASCII characters',
          type: 'value_error',
        },
      ]);
    }
    const scope = tenantOf(res).tenantId;
    const claimFingerprint = fingerprint(req, await bodyOf(req, res, uploadLimit));
    const claim = await store.claim(scope, key, claimFingerprint);
    switch (claim.kind) {
      case 'completed':
        res.status(claim.status).set('Idempotent-Replayed', 'true').json(claim.body);
        return;
      case 'mismatch':
        throw new HttpError(422, [
          {
            loc: ['header', HEADER],
            msg: 'This Idempotency-Key was already used with a different request',
            type: 'idempotency_key_reused',
          },
        ]);
      case 'in_progress':
        throw new HttpError(409, 'A request with this Idempotency-Key is still being processed; retry it shortly');
      case 'claimed':
        break;
    }
    res.locals.idempotency = { key, request: claimFingerprint };
    // The result is recorded when the answer is made, and before it is sent: a retry made the
    // moment the answer arrives finds it. Not when the connection closes: a client that gives up
    // early must not free the key while the work goes on (its retry gets a 409 until the first
    // answer is recorded, or this process dies and its claim with it).
    const json = res.json.bind(res);
    let recorded = false;
    res.json = (body: unknown) => {
      if (recorded) return json(body);
      recorded = true;
      const keep = res.statusCode < 500 && res.statusCode !== 429;
      (keep ? store.complete(scope, key, res.statusCode, body) : store.release(scope, key))
        .catch((error: unknown) =>
          req.log?.warn({ err: error }, 'could not record the result of an idempotent request'),
        )
        .finally(() => json(body));
      return res;
    };
    next();
  };
}
