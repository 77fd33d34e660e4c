import type { HttpGetter, HttpResponse } from '../../application/ports/peppolNetwork.js';
import { MAX_SMP_RESPONSE_BYTES } from '../../domain/peppol/smpReader.js';

/**
 * GET with a time limit and a size limit, for SMPs and the Peppol Directory: servers we do not
 * control must not be able to hang a lookup or fill memory.
 */
export class FetchHttpGetter implements HttpGetter {
  constructor(
    private readonly timeoutMs: number,
    private readonly maxBytes = MAX_SMP_RESPONSE_BYTES,
  ) {}

  async get(url: string): Promise<HttpResponse> {
    if (!/^https?:\/\//i.test(url)) throw new Error(`only http and https URLs are fetched, not ${url}`);
    const response = await fetch(url, {
      signal: AbortSignal.timeout(this.timeoutMs),
      // Addresses come from DNS answers and SMP documents: HTTP redirects are not followed, so
      // that a response cannot send the lookup somewhere the SML did not point to.
      redirect: 'manual',
      headers: { Accept: 'application/xml, text/xml, application/json;q=0.9, */*;q=0.1' },
    });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      throw new Error(`${url} answered a redirect (HTTP ${response.status}), which is not followed`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > this.maxBytes) {
          await reader.cancel();
          throw new Error(`response of ${url} is larger than ${this.maxBytes} bytes`);
        }
        chunks.push(value);
      }
    }
    return {
      status: response.status,
      body: Buffer.concat(chunks).toString('utf8'),
      contentType: response.headers.get('content-type'),
    };
  }
}
