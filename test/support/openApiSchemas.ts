import Ajv2020Module from 'ajv/dist/2020.js';

/** Ajv for JSON Schema 2020-12, the dialect of OpenAPI 3.1 (ajv is CommonJS: its class is also its `default`). */
export const Ajv2020 = Ajv2020Module.default;

export type Schema = Record<string, unknown>;
export interface Operation {
  responses: Record<string, { description: string; content?: Record<string, { schema?: Schema }> }>;
  parameters?: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: { required: boolean; content: Record<string, { schema?: Schema }> };
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

/**
 * The schema closed: every object that names its properties allows no other (unless it says what
 * others may be), so that an answer with a field the document does not describe fails.
 */
export function strictSchema(schema: Schema): Schema {
  const close = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(close);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value as Schema).map(([k, v]) => [k, close(v)] as const);
    const closed = Object.fromEntries(entries) as Schema;
    if (closed.properties !== undefined && closed.additionalProperties === undefined)
      closed.additionalProperties = false;
    return closed;
  };
  return close(schema) as Schema;
}
