/**
 * Suites for servers that are not reachable here (EventStoreDB) are skipped with a loud
 * message, never faked. (The MongoDB suites run against FerretDB: see mongo.ts.)
 */
export function requireEnv(name: string, what: string): string | null {
  const value = process.env[name];
  if (value) return value;
  console.warn(`\n  ⚠ SKIPPED: ${what} — set ${name} to run it against a real server.\n`);
  return null;
}
