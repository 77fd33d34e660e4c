/**
 * One setting of the service: an environment variable with its name, what it means, its default,
 * and how it is read. Every setting is declared once, in catalogue.ts; the code reads it through
 * its declaration (`SETTINGS.PORT.read(env)`), and `npm run docs:generate` writes the
 * configuration reference (docs/operating/configuration.md) from the same declarations, so the
 * two cannot disagree (test/docs/settings.test.ts checks that nothing in src/ reads the
 * environment around them).
 */
export interface Setting<T> {
  readonly name: string;
  readonly section: SettingSection;
  /** What it does, in Markdown (one paragraph). */
  readonly description: string;
  /** The default as the reference shows it, in Markdown. */
  readonly defaultText: string;
  /** Read by a library rather than by our code (the AWS SDK's credentials): nothing in src/ reads it. */
  readonly readByLibrary?: string;
  read(env: Env): T;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** The reference's sections, in its order. */
export const SETTING_SECTIONS = {
  service: 'Service: HTTP, data, keys, logs',
  storage: 'Storage profiles: PostgreSQL, EventStoreDB, MongoDB',
  blobs: 'Blob store',
  limits: 'Request and document limits',
  work: 'Heavy work off the event loop',
  delivery: 'Delivery, test-mode mail, webhooks, jobs',
  peppol: 'Peppol: SMP, SML, lookup, Directory',
  as4: 'AS4 access point',
  history: 'Tamper-evident history: hash chain and signed checkpoints',
  testing: 'Tests only',
  internal: 'Set by the service itself',
} as const;
export type SettingSection = keyof typeof SETTING_SECTIONS;

interface Declaration {
  section: SettingSection;
  description: string;
  /** Shown instead of the fallback (a default computed at start, or one worth explaining). */
  defaultText?: string;
}

/** Unset and empty (or blank) are the same: the default. */
const present = (env: Env, name: string): string | null => {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
};

const code = (value: string | number) => `\`${value}\``;

function declare<T>(name: string, declaration: Declaration, fallbackText: string, read: (env: Env) => T): Setting<T> {
  return {
    name,
    section: declaration.section,
    description: declaration.description,
    defaultText: declaration.defaultText ?? fallbackText,
    read,
  };
}

/** A whole number ≥ 0 (`min` 1: > 0); anything else stops the start with the setting's name. */
export function integer(name: string, fallback: number, declaration: Declaration & { min?: 0 | 1 }): Setting<number> {
  const min = declaration.min ?? 0;
  return declare(name, declaration, code(fallback), (env) => {
    const raw = present(env, name);
    if (raw === null) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min)
      throw new Error(`${name} must be a ${min === 0 ? 'non-negative' : 'positive'} integer, got "${raw}"`);
    return value;
  });
}

/** A whole number ≥ 0 (`min` 1: > 0), or null when unset (the reader then decides the default). */
export function optionalInteger(name: string, declaration: Declaration & { min?: 0 | 1 }): Setting<number | null> {
  const whole = integer(name, 0, declaration);
  return declare(name, declaration, 'unset', (env) => (present(env, name) === null ? null : whole.read(env)));
}

/** Text with a default. */
export function text(name: string, fallback: string, declaration: Declaration): Setting<string> {
  return declare(name, declaration, code(fallback), (env) => present(env, name) ?? fallback);
}

/** Text, or null when unset. */
export function optionalText(name: string, declaration: Declaration): Setting<string | null> {
  return declare(name, declaration, 'unset', (env) => present(env, name));
}

/** `true` or `false` (any case); anything else stops the start. Unset: `fallback` (false). */
export function flag(name: string, declaration: Declaration, fallback = false): Setting<boolean> {
  return declare(name, declaration, code(String(fallback)), (env) => {
    const raw = present(env, name)?.toLowerCase() ?? String(fallback);
    if (raw !== 'true' && raw !== 'false') throw new Error(`${name} must be true or false, got "${env[name]}"`);
    return raw === 'true';
  });
}

/** An http(s) URL without its trailing slashes, or null when unset. */
export function url(name: string, declaration: Declaration): Setting<string | null> {
  return declare(name, declaration, 'unset', (env) => {
    const raw = present(env, name);
    if (raw === null) return null;
    if (!/^https?:\/\/[^\s]+$/i.test(raw)) throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
    return raw.replace(/\/+$/, '');
  });
}

/** Comma-separated items (blank ones dropped); unset: none. */
export function list(name: string, declaration: Declaration): Setting<string[]> {
  return declare(name, declaration, 'unset', (env) =>
    (present(env, name) ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );
}

/** A calendar day YYYY-MM-DD that exists, or null when unset. */
export function day(name: string, declaration: Declaration): Setting<string | null> {
  return declare(name, declaration, 'unset', (env) => {
    const raw = present(env, name);
    if (raw === null) return null;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || new Date(`${raw}T00:00:00Z`).toISOString().slice(0, 10) !== raw)
      throw new Error(`${name} must be a date YYYY-MM-DD, got "${raw}"`);
    return raw;
  });
}

/** One of `values`; anything else stops the start. */
export function choice<V extends string>(
  name: string,
  values: readonly V[],
  fallback: V,
  declaration: Declaration,
): Setting<V> {
  return declare(name, declaration, code(fallback), (env) => {
    const raw = present(env, name) ?? fallback;
    if (!(values as readonly string[]).includes(raw))
      throw new Error(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
    return raw as V;
  });
}

/** A variable a library reads by itself (documented here; our code never reads it). */
export function libraryVariable(name: string, library: string, declaration: Declaration): Setting<string | null> {
  return { ...optionalText(name, declaration), readByLibrary: library };
}
