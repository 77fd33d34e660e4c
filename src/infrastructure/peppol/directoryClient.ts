import type {
  DirectoryMatch,
  DirectoryResult,
  HttpGetter,
  PeppolDirectory,
} from '../../application/ports/peppolNetwork.js';

const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const identifier = (value: unknown) => {
  const v = value as { scheme?: unknown; value?: unknown } | null;
  return { scheme: str(v?.scheme) ?? '', value: str(v?.value) ?? '' };
};

/** Reads one match of the Directory's JSON, keeping only well-typed fields (it is another server's data). */
function matchOf(raw: unknown): DirectoryMatch | null {
  const match = raw as Record<string, unknown> | null;
  const participant = identifier(match?.participantID);
  if (!participant.value) return null;
  return {
    participantID: participant,
    docTypes: list(match?.docTypes)
      .map(identifier)
      .filter((d) => d.value !== ''),
    entities: list(match?.entities).map((rawEntity) => {
      const entity = rawEntity as Record<string, unknown> | null;
      return {
        name: list(entity?.name)
          .map((n) => ({
            name: str((n as { name?: unknown })?.name) ?? '',
            language: str((n as { language?: unknown })?.language) ?? undefined,
          }))
          .filter((n) => n.name !== ''),
        countryCode: str(entity?.countryCode),
        geoInfo: str(entity?.geoInfo),
        identifiers: list(entity?.identifiers)
          .map(identifier)
          .filter((i) => i.value !== ''),
        websites: list(entity?.websites)
          .map(str)
          .filter((w): w is string => w !== null),
        additionalInfo: str(entity?.additionalInfo),
        regDate: str(entity?.regDate),
      };
    }),
  };
}

/** The Peppol Directory search API (`/search/1.0/json?q=…&country=…`), at PEPPOL_DIRECTORY_URL. */
export class PeppolDirectoryClient implements PeppolDirectory {
  constructor(
    private readonly baseUrl: string,
    private readonly http: HttpGetter,
  ) {}

  async search(query: string, countryCode: string | null): Promise<DirectoryResult> {
    const url = new URL('search/1.0/json', this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    url.searchParams.set('q', query);
    if (countryCode) url.searchParams.set('country', countryCode);
    const response = await this.http.get(url.toString());
    if (response.status !== 200) throw new Error(`Peppol Directory answered ${response.status}`);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(response.body) as Record<string, unknown>;
    } catch {
      throw new Error('Peppol Directory answered with malformed JSON');
    }
    const matches = list(body?.matches)
      .map(matchOf)
      .filter((m): m is DirectoryMatch => m !== null);
    const total =
      typeof body['total-result-count'] === 'number' ? (body['total-result-count'] as number) : matches.length;
    return { total, matches };
  }
}
