import type * as t from 'io-ts';

type Schema = Record<string, unknown>;

/** Schemas of custom codecs (`new t.Type(…)`), which io-ts cannot describe: said where they are made. */
const described = new WeakMap<object, () => Schema>();

/**
 * Attaches its JSON Schema to a custom codec, so that the OpenAPI document describes it from the
 * codec itself (lazily: a schema may name other codecs). Answers the codec.
 */
export function describedAs<C extends t.Any>(codec: C, schema: Schema | (() => Schema)): C {
  described.set(codec, typeof schema === 'function' ? schema : () => schema);
  return codec;
}

/**
 * JSON Schema (OpenAPI 3.1 dialect) of an io-ts codec, so that the published interface is
 * derived from the same codecs that decode the requests.
 */
export function jsonSchemaOf(codec: t.Any): Schema {
  const own = described.get(codec);
  if (own) return own();
  const type = codec as t.Any & { _tag?: string } & Record<string, unknown>;
  switch (type._tag) {
    case 'StringType':
      return { type: 'string' };
    case 'NumberType':
      return { type: 'number' };
    case 'BooleanType':
      return { type: 'boolean' };
    case 'NullType':
      return { type: 'null' };
    case 'UnknownType':
    case 'AnyType':
      return {};
    case 'LiteralType':
      return { const: type.value };
    case 'KeyofType':
      return { type: 'string', enum: Object.keys(type.keys as object) };
    case 'ArrayType':
    case 'ReadonlyArrayType':
      return { type: 'array', items: jsonSchemaOf(type.type as t.Any) };
    case 'InterfaceType':
    case 'PartialType':
    case 'StrictType': {
      const props = type.props as Record<string, t.Any>;
      const properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, jsonSchemaOf(v)]));
      return type._tag === 'PartialType'
        ? { type: 'object', properties }
        : { type: 'object', properties, required: Object.keys(props) };
    }
    case 'ExactType':
    case 'ReadonlyType':
      return jsonSchemaOf(type.type as t.Any);
    case 'RefinementType':
      return { ...jsonSchemaOf(type.type as t.Any), description: codec.name };
    case 'IntersectionType': {
      const parts = (type.types as t.Any[]).map(jsonSchemaOf);
      if (parts.every((p) => p.type === 'object')) {
        return {
          type: 'object',
          properties: Object.assign({}, ...parts.map((p) => p.properties)),
          required: parts.flatMap((p) => (p.required as string[] | undefined) ?? []),
        };
      }
      return { allOf: parts };
    }
    case 'UnionType': {
      const members = (type.types as t.Any[]).map(jsonSchemaOf);
      if (members.every((m) => 'const' in m)) return { enum: members.map((m) => m.const) };
      return { anyOf: members };
    }
    case 'RecordType':
    case 'DictionaryType':
      return { type: 'object', additionalProperties: jsonSchemaOf(type.codomain as t.Any) };
    case 'UnknownRecordType':
      return { type: 'object' };
    default:
      // Custom codecs (e.g. query integers) document themselves by name.
      return { description: codec.name };
  }
}
