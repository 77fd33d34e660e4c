/**
 * `table[key]` for a key that comes from outside (a country name, a unit code, a file extension):
 * only the table's own entries, so 'constructor', '__proto__' or 'toString' find nothing instead of
 * what Object.prototype holds under those names.
 */
export const ownEntry = <V>(table: Readonly<Record<string, V>>, key: string): V | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;
