import type { Request, Response } from 'express';
import type { As4Inbox, As4Outcome } from '../../../application/inbox/as4Inbox.js';
import { HttpError } from '../../errors.js';
import type { RouteRegistry } from '../../routeRegistry.js';

export const AS4_PATH = '/as4';

/** Whether a request URL is the AS4 endpoint (the global XML body parser leaves its body alone). */
export const isAs4Path = (url: string | undefined): boolean => (url ?? '').split('?')[0] === AS4_PATH;

/** The body as bytes, or null when it is larger than `limit` (then it is not read further). */
function readBody(req: Request, limit: number): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (value: Buffer | null) => {
      settled = true;
      resolve(value);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        settle(null);
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      if (!settled) settle(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
  });
}

function answer(res: Response, outcome: As4Outcome): void {
  // HTTP 200 for an error signal too, as phase4 answers: the signal, not the status, is the answer
  // (a sender that took a 5xx for a transport failure would retry what we refused for good).
  res.status(200).set('Content-Type', outcome.answer.contentType).send(outcome.answer.body);
}

/**
 * `POST /as4`: this access point's AS4 endpoint (the address our SMP publishes). No API key: a
 * message is authenticated by its signature, from a certificate of a trusted Peppol AP CA. Every
 * answer is a signed ebMS signal with HTTP 200: a Receipt for a message stored, an Error otherwise;
 * a body over AS4_MAX_MESSAGE_BYTES is not read past the limit and gets EBMS:0010. Without an AS4
 * key there is no endpoint: 404.
 */
export function as4Routes(routes: RouteRegistry, inbox: As4Inbox, maxMessageBytes: number): void {
  routes.add({
    method: 'post',
    path: AS4_PATH,
    summary:
      'Peppol AS4 endpoint (corner 3): a signed and encrypted AS4 UserMessage from another access point; answers a signed Receipt or ebMS Error',
    tag: 'peppol',
    auth: 'none',
    rawBody: true,
    responses: { 200: 'A signed AS4 Receipt or ebMS Error signal (SOAP 1.2)', 404: 'AS4 is not configured' },
    media: { 'application/soap+xml': 'The signed ebMS signal (SOAP 1.2 envelope)' },
    handler: async (req, res) => {
      if (!inbox.enabled) throw new HttpError(404, 'AS4 is not configured on this access point');
      const remoteAddress = req.socket.remoteAddress ?? null;
      let body: Buffer | null;
      try {
        body = await readBody(req, maxMessageBytes);
      } catch {
        // The sender went away mid-body: there is no one to answer.
        res.destroy();
        return;
      }
      if (body === null) {
        // Answered at once; the rest of the body is discarded and the connection closed after the answer.
        res.set('Connection', 'close');
        answer(res, inbox.refuseOversized(maxMessageBytes, remoteAddress));
        req.resume();
        return;
      }
      answer(res, await inbox.receive({ contentType: req.headers['content-type'] ?? '', body, remoteAddress }));
    },
  });
}
