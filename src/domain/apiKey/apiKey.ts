import { assertNever, type Decider, type Event } from '../decider.js';
import { conflict, invalidState, notFound } from '../errors.js';

/**
 * An API key. Organization keys reach the administrative interface; tenant keys reach the
 * tenant's documents. Only a SHA-256 hash of the secret is ever recorded.
 */
export type ApiKeyOwner =
  { kind: 'organization'; organization_id: string } | { kind: 'tenant'; organization_id: string; tenant_id: string };

export type ApiKeyIssued = Event<
  'ApiKeyIssued',
  {
    key_id: string;
    owner: ApiKeyOwner;
    name: string;
    description: string | null;
    hash: string;
    prefix: string;
    issued_at: string;
  }
>;
export type ApiKeyRenamed = Event<
  'ApiKeyRenamed',
  { key_id: string; name: string; description: string | null; renamed_at: string }
>;
export type ApiKeyRevoked = Event<'ApiKeyRevoked', { key_id: string; revoked_at: string }>;
export type ApiKeyEvent = ApiKeyIssued | ApiKeyRenamed | ApiKeyRevoked;

export type ApiKeyCommand =
  | { type: 'IssueApiKey'; data: Omit<ApiKeyIssued['data'], 'issued_at'> & { now: string } }
  | { type: 'RenameApiKey'; data: { key_id: string; name: string; description: string | null; now: string } }
  | { type: 'RevokeApiKey'; data: { key_id: string; now: string } };

export type ApiKeyState =
  | { status: 'absent' }
  | {
      status: 'active' | 'revoked';
      id: string;
      owner: ApiKeyOwner;
      name: string;
      description: string | null;
      hash: string;
      prefix: string;
      created_at: string;
      updated_at: string;
    };

export const apiKeyStream = (keyId: string) => `apikey-${keyId}`;

export const apiKeyDecider: Decider<ApiKeyState, ApiKeyCommand, ApiKeyEvent> = {
  initialState: () => ({ status: 'absent' }),

  decide(command, state) {
    switch (command.type) {
      case 'IssueApiKey': {
        if (state.status !== 'absent') throw conflict('An API key with this id already exists');
        const { now, ...data } = command.data;
        return [{ type: 'ApiKeyIssued', data: { ...data, issued_at: now } }];
      }
      case 'RenameApiKey':
        if (state.status === 'absent') throw notFound('API key not found');
        if (state.status === 'revoked') throw invalidState('API key is revoked');
        return [
          {
            type: 'ApiKeyRenamed',
            data: {
              key_id: state.id,
              name: command.data.name,
              description: command.data.description,
              renamed_at: command.data.now,
            },
          },
        ];
      case 'RevokeApiKey':
        if (state.status === 'absent') throw notFound('API key not found');
        // Revoking twice is harmless and answers the same: the key stays revoked.
        if (state.status === 'revoked') return [];
        return [{ type: 'ApiKeyRevoked', data: { key_id: state.id, revoked_at: command.data.now } }];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyIssued':
        return {
          status: 'active',
          id: event.data.key_id,
          owner: event.data.owner,
          name: event.data.name,
          description: event.data.description,
          hash: event.data.hash,
          prefix: event.data.prefix,
          created_at: event.data.issued_at,
          updated_at: event.data.issued_at,
        };
      case 'ApiKeyRenamed':
        if (state.status === 'absent') return state;
        return {
          ...state,
          name: event.data.name,
          description: event.data.description,
          updated_at: event.data.renamed_at,
        };
      case 'ApiKeyRevoked':
        if (state.status === 'absent') return state;
        return { ...state, status: 'revoked', updated_at: event.data.revoked_at };
      default:
        return assertNever(event);
    }
  },
};
