import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface WebhookReceiver {
  url(path: string): string;
  calls: ReceivedCall[];
  /** How a path answers: a status, after an optional delay. Default 200 at once. */
  answer(path: string, status: number, delayMs?: number): void;
  stop(): Promise<void>;
}

/** A real HTTP server on loopback that records every webhook call it gets. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const calls: ReceivedCall[] = [];
  const answers = new Map<string, { status: number; delayMs: number }>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      calls.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = answers.get(path) ?? { status: 200, delayMs: 0 };
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(answer.status).end('ok');
      }, answer.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    calls,
    answer: (path, status, delayMs = 0) => answers.set(path, { status, delayMs }),
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
