import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signing as in the Standard Webhooks specification (standardwebhooks.com): the secret is
 * `whsec_` + base64 key bytes; the signature is base64 HMAC-SHA256 over
 * `${webhook-id}.${webhook-timestamp}.${body}`, sent as `webhook-signature: v1,<signature>`.
 * The id lets receivers drop repeats; the signed timestamp lets them refuse replays.
 */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const keyOf = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export function webhookHeaders(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
  kind: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'e-invoicing-webhooks/1',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, id, timestamp, body),
    'webhook-event': kind,
  };
}

/** What a receiver does: recompute, compare in constant time, and refuse stale timestamps. */
export function verifyWebhook(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, headers.id, timestamp, body));
  return headers.signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
