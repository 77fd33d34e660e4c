import http from 'node:http';
import https from 'node:https';

export interface PostAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

/** Kept-alive connections to the access points we send to (most traffic goes to a few) and to OCSP responders. */
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/**
 * POSTs a body (an AS4 message, an OCSP request) and reads the answer, at most `maxBytes` of it,
 * within `timeoutMs` for the whole exchange. Redirects are not followed (an AS4 endpoint or an
 * OCSP responder answers itself). node:http rather than fetch: per message it costs a fraction of
 * fetch's CPU, which at a hundred documents a second is most of what the HTTP exchange costs.
 * Network failures reject, with the error's code (ECONNREFUSED, ECONNRESET, …) in the message.
 */
export function httpPost(
  url: URL,
  body: Buffer,
  headers: Record<string, string>,
  options: { timeoutMs: number; maxBytes: number },
): Promise<PostAnswer> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<PostAnswer>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        agent: agents[url.protocol as keyof typeof agents],
        headers: { ...headers, 'Content-Length': String(body.length) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            request.destroy(new Error(`the answer is larger than ${options.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      },
    );
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on('close', () => clearTimeout(timer));
    request.on('error', (error: NodeJS.ErrnoException) => reject(new Error(error.code ?? error.message)));
    request.end(body);
  });
}
