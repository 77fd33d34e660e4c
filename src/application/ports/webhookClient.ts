/** Posts a webhook notification; resolves with the status code, rejects on a network failure or timeout. */
export interface WebhookClient {
  post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<number>;
}

export const WEBHOOK_CLIENT = Symbol('WebhookClient');
