import path from 'node:path';
import type { Config } from '../infrastructure/config.js';
import type { BuildGeneration } from '../infrastructure/buildGeneration.js';
import { ruleSetsAsOf, systemRuleSetClock } from '../application/documents/ruleSetChoice.js';
import { assertNever } from '../domain/decider.js';
import { storageProfileOf } from './options.js';

/** One line of the start-up block: a part of the service, whether it is on (null: neither applies), and what or why. */
export interface StartupFact {
  part: string;
  on: boolean | null;
  detail: string;
}

/** `StartupFact[]`: what the composition learnt of the Peppol parts while putting them together. */
export const STARTUP_FACTS = Symbol('StartupFacts');

/** A URL without its credentials, for a log. */
function shown(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(an unreadable URL)';
  }
}

function storage(config: Config): string {
  const profile = storageProfileOf(config);
  switch (profile) {
    case 'embedded-postgres':
      return `embedded PostgreSQL under ${path.join(config.dataDir, 'postgres')} (port ${config.embeddedPostgresPort})`;
    case 'postgres-server':
      return `PostgreSQL at ${shown(config.databaseUrl!)}`;
    case 'scale-out':
      return `scale-out: events in ${config.eventStoreUrl ? `EventStoreDB at ${shown(config.eventStoreUrl)}` : 'PostgreSQL'}, read models and jobs in ${config.mongodbUrl ? `MongoDB at ${shown(config.mongodbUrl)}` : 'PostgreSQL'}`;
    default:
      return assertNever(profile);
  }
}

function blobs(config: Config): string {
  const store = config.blobStore;
  switch (store.kind) {
    case 'postgres':
      return 'payloads in PostgreSQL';
    case 'fs':
      return `payloads under ${store.dir}`;
    case 's3':
      return `payloads in S3 bucket ${store.bucket}${store.endpoint ? ` at ${store.endpoint}` : ''}`;
    default:
      return assertNever(store);
  }
}

/**
 * The block a process logs once it listens: what is on and off and why, so that a first start's
 * expected "off" parts (no AS4 key, unsigned SMP) read as such rather than as warnings.
 */
export function startupReport(
  config: Config,
  peppol: StartupFact[],
  build: BuildGeneration | null,
  heading: string,
): { text: string; facts: StartupFact[] } {
  const rules = ruleSetsAsOf(systemRuleSetClock(config.rulesDate));
  const facts: StartupFact[] = [
    {
      part: 'build',
      on: null,
      detail: !build
        ? 'a developer build (dist/), not a build generation'
        : `build/${build.id}${build.held ? '' : ' (not held: build/running is not writable, so a later build may remove these files while this runs)'}`,
    },
    { part: 'storage', on: null, detail: `${storage(config)}; ${blobs(config)}` },
    {
      part: 'rule sets',
      on: null,
      detail: `${rules.in_force} in force on ${rules.today}${config.rulesDate ? ' (RULES_DATE)' : ''}; ${rules.rule_sets.length} known (GET /api/validate/rule-sets)`,
    },
    config.smtpUrl
      ? { part: 'e-mail', on: true, detail: `test-mode mail through SMTP at ${shown(config.smtpUrl)}` }
      : {
          part: 'e-mail',
          on: false,
          detail: `SMTP_URL is not set: test-mode mail is written as .eml files to ${path.join(config.dataDir, 'mail')}`,
        },
    ...peppol,
  ];
  const state = (on: boolean | null) => (on === null ? '' : on ? 'on: ' : 'off: ');
  const lines = facts.map((fact) => `  ${fact.part.padEnd(12)} ${state(fact.on)}${fact.detail}`);
  return { text: [heading, ...lines].join('\n'), facts };
}
