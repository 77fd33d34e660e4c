/**
 * The base URL a request reached us at, for the URLs the SMP publishes when PUBLIC_URL is not
 * configured (behind a proxy, set PUBLIC_URL: express is not told to trust forwarded headers).
 */
export const requestBase = (req: { protocol: string; get(name: string): string | undefined }) =>
  `${req.protocol}://${req.get('host') ?? 'localhost'}`;
