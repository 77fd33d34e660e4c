import http from 'node:http';
import { runPhase4Sender, type Phase4SendOptions } from '../test/support/phase4.js';

type SendOptions = Omit<Phase4SendOptions, 'endpoint'>;

/**
 * `count` AS4 messages as phase4 builds them (signed, encrypted for the receiver's certificate),
 * captured on a loopback endpoint of this process instead of being delivered: the receiving
 * benchmark can then post them exactly as it posts ours. The endpoint answers HTTP 500, which
 * phase4 does not retry, so each message arrives once (a repeated MessageId is dropped anyway).
 */
export async function capturePhase4Messages(
  options: SendOptions & { count: number },
): Promise<Array<{ contentType: string; body: Buffer }>> {
  const captured = new Map<string, { contentType: string; body: Buffer }>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const messageId = /<eb:MessageId>([^<]+)<\/eb:MessageId>/.exec(body.toString('latin1'))?.[1];
      if (messageId && !captured.has(messageId))
        captured.set(messageId, { contentType: req.headers['content-type'] ?? '', body });
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    await runPhase4Sender({ ...options, endpoint: `http://127.0.0.1:${port}/as4` });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  if (captured.size !== options.count)
    throw new Error(`phase4 built ${captured.size} distinct messages, not ${options.count}`);
  return [...captured.values()];
}

/** phase4 sends `count` messages to `endpoint`: how many receipts it verified, and its rate. */
export async function sendWithPhase4(
  options: SendOptions & { endpoint: string; count: number },
): Promise<{ verified: number; perSecond: number }> {
  const run = await runPhase4Sender(options);
  const verified = run.reports.filter((r) => r.ok && r.receiptCheck === 'verified').length;
  if (verified !== options.count)
    throw new Error(
      `phase4 got ${verified} verified receipts for ${options.count} messages: ${JSON.stringify(run.reports.find((r) => !r.ok))}`,
    );
  return { verified, perSecond: run.summary?.perSecond ?? NaN };
}
