import * as t from 'io-ts';
import type { Decimal } from 'decimal.js';
import { CURRENCIES, TAX_CODES, VATEX_CODES, isUnitCodeFormat } from '../../domain/document/invoice/codeLists.js';
import type { Currency, TaxCode, VatexCode } from '../../domain/document/invoice/codeLists.js';
import { DOCUMENT_TYPES, emptyDocument, emptyLineItem } from '../../domain/document/invoice/documentModel.js';
import type {
  AllowanceCharge,
  Attachment,
  Document,
  DocumentType,
  LineItem,
  PaymentDetail,
  TaxDetail,
} from '../../domain/document/invoice/documentModel.js';
import {
  attachmentsLimitMessage,
  DEFAULT_DOCUMENT_SIZE_LIMITS,
  linesLimitMessage,
  type DocumentSizeLimits,
} from '../../domain/document/invoice/documentLimits.js';
import type { InputProblem } from '../../domain/inputText.js';
import { decimalPlaces, parseDecimal } from '../../domain/document/invoice/money.js';
import { peppolIdProblem } from '../../domain/document/invoice/peppolId.js';
import { compactId, isSchemeForm, vatNumberProblem } from '../../domain/document/invoice/vatNumber.js';
import { describedAs, jsonSchemaOf } from '../jsonSchema.js';

/*
 * The create (and validate) request body of a document, decoded at the edge into the domain's one
 * document type: the API's JSON shape exists only here, as io-ts codecs, and never leaves this
 * module. Failures come back in FastAPI's 422 shape (loc ['body', field, index, ...]), byte for
 * byte what the spec's clients expect. The JSON body of a large document is decoded on a worker
 * process (infrastructure/workers/documentTasks.ts), which is why that module imports this one.
 */

/** One problem in FastAPI's 422 shape: loc is ['body', field, index, field, ...]. */
export type InputError = InputProblem;

/** A decoded request: the domain's document, or every field that is wrong. */
export type DecodeResult = { ok: true; value: Document } | { ok: false; errors: InputError[] };

// io-ts carries only a message per failure; we need FastAPI's (type, msg) pair, so both travel in it.
const SEP = '\u0000';
const fail = <A>(u: unknown, c: t.Context, type: string, msg: string): t.Validation<A> =>
  t.failure(u, c, `${type}${SEP}${msg}`);

const missing = <A>(u: unknown, c: t.Context) => fail<A>(u, c, 'missing', 'Field required');

/** null or absent -> null; anything else goes to the inner codec. */
const nullable = <A>(inner: t.Type<A, unknown>, name = `Nullable<${inner.name}>`): t.Type<A | null, unknown> =>
  describedAs(
    new t.Type<A | null, unknown>(
      name,
      (u): u is A | null => u === null,
      (u, c) => (u === null || u === undefined ? t.success(null) : inner.validate(u, c)),
      (a) => a,
    ),
    () => ({ anyOf: [jsonSchemaOf(inner), { type: 'null' }] }),
  );

const required = <A>(inner: t.Type<A, unknown>): t.Type<A, unknown> =>
  describedAs(
    new t.Type<A, unknown>(
      inner.name,
      (u): u is A => u !== undefined,
      (u, c) => (u === undefined ? missing<A>(u, c) : inner.validate(u, c)),
      (a) => a,
    ),
    () => jsonSchemaOf(inner),
  );

const str = new t.Type<string, unknown>(
  'string',
  (u): u is string => typeof u === 'string',
  (u, c) => (typeof u === 'string' ? t.success(u) : fail(u, c, 'string_type', 'Input should be a valid string')),
  (a) => a,
);

/**
 * Identifiers (document number, order and customer references, codes, bank details): no standard
 * sets a length, but nothing legitimate comes near this, and every receiver stores them as keys.
 * Other text is bounded by the request's limit on any one string (MAX_STRING_LENGTH, at the edge).
 */
const MAX_IDENTIFIER_LENGTH = 200;
const identifier = new t.Type<string, unknown>(
  'identifier',
  (u): u is string => typeof u === 'string' && u.length <= MAX_IDENTIFIER_LENGTH,
  (u, c) =>
    typeof u !== 'string'
      ? fail(u, c, 'string_type', 'Input should be a valid string')
      : u.length > MAX_IDENTIFIER_LENGTH
        ? fail(u, c, 'string_too_long', `String should have at most ${MAX_IDENTIFIER_LENGTH} characters`)
        : t.success(u),
  (a) => a,
);

/** A created document starts as an outbound draft: a body may say so, but nothing else. */
const only = <V extends string>(value: V, name: string, why: string): t.Type<V, unknown> =>
  describedAs(
    new t.Type<V, unknown>(
      name,
      (u): u is V => u === value,
      (u, c) => (u === value ? t.success(value) : fail(u, c, 'enum', `Input should be '${value}': ${why}`)),
      (a) => a,
    ),
    { const: value, description: why },
  );

interface AmountOptions {
  maxDecimals?: number;
  nonNegative?: boolean;
}

/** Amounts and quantities: JSON numbers and numeric strings, never through floating point arithmetic. */
const amount = (opts: AmountOptions = {}): t.Type<Decimal, unknown> =>
  describedAs(amountCodec(opts), {
    anyOf: [
      { type: 'number', ...(opts.nonNegative ? { minimum: 0 } : {}) },
      { type: 'string', pattern: '^\\s*-?\\d+(\\.\\d+)?\\s*$' },
    ],
    description: `A decimal${opts.maxDecimals !== undefined ? ` with at most ${opts.maxDecimals} decimals` : ''}${opts.nonNegative ? ', not negative' : ''} (a JSON number or a numeric string)`,
  });
const amountCodec = (opts: AmountOptions): t.Type<Decimal, unknown> =>
  new t.Type<Decimal, unknown>(
    'amount',
    (_u): _u is Decimal => false,
    (u, c) => {
      if (typeof u !== 'number' && typeof u !== 'string') {
        return fail(u, c, 'decimal_type', 'Input should be a valid number');
      }
      const d = parseDecimal(u);
      if (d === null) return fail(u, c, 'decimal_parsing', 'Input should be a valid number');
      if (opts.maxDecimals !== undefined && decimalPlaces(d.toFixed()) > opts.maxDecimals) {
        return fail(
          u,
          c,
          'decimal_max_places',
          `Decimal input should have no more than ${opts.maxDecimals} decimal places`,
        );
      }
      if (opts.nonNegative && d.isNegative() && !d.isZero()) {
        return fail(u, c, 'greater_than_equal', 'Input should be greater than or equal to 0');
      }
      return t.success(d);
    },
    (a) => a,
  );

const money2 = amount({ maxDecimals: 2 });
const positiveMoney2 = amount({ maxDecimals: 2, nonNegative: true });

const PERCENT = /^\s*(\d{1,3}(?:\.\d{1,2})?)\s*%?\s*$/;
const percentFromString = (s: string): Decimal | null => {
  const m = PERCENT.exec(s);
  if (!m) return null;
  const d = parseDecimal(m[1]);
  return d !== null && d.lte(100) ? d : null;
};
const percentMsg = 'tax_rate must be a percentage string with at most two decimals, e.g. "21.00"';

/** Line tax_rate: the spec rejects non-strings here. */
const percentString = new t.Type<Decimal, unknown>(
  'percentString',
  (_u): _u is Decimal => false,
  (u, c) => {
    if (typeof u !== 'string') return fail(u, c, 'string_type', `Input should be a valid string; ${percentMsg}`);
    const d = percentFromString(u);
    return d === null ? fail(u, c, 'value_error', percentMsg) : t.success(d);
  },
  (a) => a,
);

/** Allowance/charge tax_rate: a plain number is accepted as well. */
const percentLoose = new t.Type<Decimal, unknown>(
  'percent',
  (_u): _u is Decimal => false,
  (u, c) => {
    if (typeof u === 'number') {
      const d = parseDecimal(u);
      return d !== null && d.gte(0) && d.lte(100) && decimalPlaces(d.toFixed()) <= 2
        ? t.success(d)
        : fail(u, c, 'value_error', percentMsg);
    }
    return percentString.validate(u, c);
  },
  (a) => a,
);

const isCalendarDate = (s: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
};

const date = new t.Type<string, unknown>(
  'date',
  (u): u is string => typeof u === 'string' && isCalendarDate(u),
  (u, c) =>
    typeof u === 'string' && isCalendarDate(u)
      ? t.success(u)
      : fail(u, c, 'date_parsing', 'Input should be a valid date in the format YYYY-MM-DD'),
  (a) => a,
);

const enumOf = <V extends string>(values: ReadonlyArray<V>, name: string): t.Type<V, unknown> =>
  describedAs(enumCodec(values, name), { type: 'string', enum: [...values] });
const enumCodec = <V extends string>(values: ReadonlyArray<V>, name: string): t.Type<V, unknown> =>
  new t.Type<V, unknown>(
    name,
    (u): u is V => typeof u === 'string' && (values as ReadonlyArray<string>).includes(u),
    (u, c) =>
      typeof u === 'string' && (values as ReadonlyArray<string>).includes(u)
        ? t.success(u as V)
        : fail(u, c, 'enum', `Input should be ${values.map((v) => `'${v}'`).join(', ')}`),
    (a) => a,
  );

const currency = new t.Type<Currency, unknown>(
  'currency',
  (u): u is Currency => typeof u === 'string' && (CURRENCIES as ReadonlyArray<string>).includes(u),
  (u, c) =>
    typeof u === 'string' && (CURRENCIES as ReadonlyArray<string>).includes(u)
      ? t.success(u as Currency)
      : fail(u, c, 'enum', `Unsupported currency; input should be one of ${CURRENCIES.join(', ')}`),
  (a) => a,
);

const peppolId = new t.Type<string, unknown>(
  'peppolId',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    if (typeof u !== 'string') return fail(u, c, 'string_type', 'Input should be a valid string');
    const problem = peppolIdProblem(u);
    return problem ? fail(u, c, 'value_error', `Invalid Peppol identifier: ${problem}`) : t.success(u.trim());
  },
  (a) => a,
);

/** VAT number with country prefix, or `<scheme>:<identifier>`; Belgian numbers must pass mod 97. */
const taxId = new t.Type<string, unknown>(
  'taxId',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    if (typeof u !== 'string') return fail(u, c, 'string_type', 'Input should be a valid string');
    const problem = isSchemeForm(u) ? peppolIdProblem(u) : vatNumberProblem(u);
    if (problem) return fail(u, c, 'value_error', `Invalid tax id: ${problem}`);
    // "BE 0123.456.749" is stored as BE0123456749, the form UBL and the Peppol directory use.
    return t.success(isSchemeForm(u) ? u.trim() : compactId(u));
  },
  (a) => a,
);

const unitCode = new t.Type<string, unknown>(
  'unit',
  (u): u is string => typeof u === 'string',
  (u, c) =>
    typeof u === 'string' && isUnitCodeFormat(u.trim())
      ? t.success(u.trim())
      : fail(u, c, 'value_error', 'unit must be a UN/ECE Rec 20 unit code such as C62, HUR, DAY, MTR or KGM'),
  (a) => a,
);

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;
const base64 = new t.Type<string, unknown>(
  'base64',
  (u): u is string => typeof u === 'string',
  (u, c) =>
    typeof u === 'string' && BASE64.test(u)
      ? t.success(u.replace(/\s+/g, ''))
      : fail(u, c, 'value_error', 'file_data must be base64-encoded'),
  (a) => a,
);

const integer = new t.Type<number, unknown>(
  'integer',
  (u): u is number => Number.isInteger(u),
  (u, c) =>
    typeof u === 'number' && Number.isInteger(u) && u >= 0
      ? t.success(u)
      : fail(u, c, 'int_type', 'Input should be a valid non-negative integer'),
  (a) => a,
);

// What the plain codecs above take, for the OpenAPI document.
describedAs(str, { type: 'string' });
describedAs(identifier, { type: 'string', maxLength: MAX_IDENTIFIER_LENGTH });
describedAs(percentString, { type: 'string', pattern: PERCENT.source, description: percentMsg });
describedAs(percentLoose, {
  anyOf: [
    { type: 'number', minimum: 0, maximum: 100 },
    { type: 'string', pattern: PERCENT.source },
  ],
  description: 'A percentage: a number, or a string with at most two decimals',
});
describedAs(date, { type: 'string', format: 'date' });
describedAs(currency, { type: 'string', enum: [...CURRENCIES] });
describedAs(peppolId, { type: 'string', description: 'A Peppol participant id, `<scheme>:<identifier>`' });
describedAs(taxId, {
  type: 'string',
  description: 'A VAT number with its country prefix (Belgian numbers pass mod 97), or `<scheme>:<identifier>`',
});
describedAs(unitCode, { type: 'string', description: 'A UN/ECE Rec 20 unit code such as C62, HUR, DAY, MTR or KGM' });
describedAs(base64, { type: 'string', contentEncoding: 'base64' });
describedAs(integer, { type: 'integer', minimum: 0 });

const arrayOf = <A>(inner: t.Type<A, unknown>, minLength = 0): t.Type<A[], unknown> => {
  const arr = t.array(inner);
  const codec = new t.Type<A[], unknown>(
    arr.name,
    (u): u is A[] => Array.isArray(u),
    (u, c) => {
      if (!Array.isArray(u)) return fail(u, c, 'list_type', 'Input should be a valid list');
      if (u.length < minLength) {
        return fail(u, c, 'too_short', `List should have at least ${minLength} item${minLength === 1 ? '' : 's'}`);
      }
      return arr.validate(u, c);
    },
    (a) => a,
  );
  return describedAs(codec, () => ({
    type: 'array',
    items: jsonSchemaOf(inner),
    ...(minLength > 0 ? { minItems: minLength } : {}),
  }));
};

/**
 * An object whose listed keys are required and the others optional. t.partial never looks at absent
 * keys, so required ones are checked here, with the key in the context like any other field error.
 */
const objectOf = <P extends t.Props>(props: P, name: string, requiredKeys: ReadonlyArray<keyof P & string> = []) => {
  const inner = t.partial(props);
  const codec = new t.Type<t.TypeOf<typeof inner>, unknown>(
    name,
    inner.is,
    (u, c) => {
      if (typeof u !== 'object' || u === null || Array.isArray(u))
        return fail(u, c, 'model_type', 'Input should be a valid object');
      const absent = requiredKeys.filter((k) => (u as Record<string, unknown>)[k] === undefined);
      const r = inner.validate(u, c);
      if (absent.length === 0) return r;
      const missingErrors: t.Errors = absent.map((k) => ({
        value: undefined,
        context: [...c, { key: k, type: props[k]!, actual: undefined }],
        message: `missing${SEP}Field required`,
      }));
      return t.failures([...missingErrors, ...(r._tag === 'Left' ? r.left : [])]);
    },
    (a) => a,
  );
  return describedAs(codec, () => ({
    title: name,
    type: 'object',
    properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, jsonSchemaOf(v)])),
    ...(requiredKeys.length ? { required: [...requiredKeys] } : {}),
  }));
};

const allowanceChargeProps = {
  reason: nullable(str),
  reason_code: nullable(identifier),
  multiplier_factor: nullable(amount({ nonNegative: true })),
  amount: nullable(money2),
  base_amount: nullable(money2),
  tax_rate: nullable(percentLoose),
  tax_code: nullable(enumOf(TAX_CODES, 'tax_code')),
};
const AllowanceChargeInput = objectOf(allowanceChargeProps, 'AllowanceCharge');

const LineItemInput = objectOf(
  {
    amount: nullable(money2),
    date: nullable(date),
    description: nullable(str),
    quantity: nullable(amount()),
    product_code: nullable(identifier),
    tax: nullable(money2),
    tax_rate: nullable(percentString),
    tax_code: nullable(enumOf(TAX_CODES, 'tax_code')),
    unit: nullable(unitCode),
    // Some published validation examples call the field unit_code; accept it as an alias of unit.
    unit_code: nullable(unitCode),
    unit_price: nullable(amount({ nonNegative: true })),
    allowances: nullable(arrayOf(AllowanceChargeInput)),
    charges: nullable(arrayOf(AllowanceChargeInput)),
  },
  'LineItem',
);

const PaymentDetailInput = objectOf(
  {
    iban: nullable(identifier),
    swift: nullable(identifier),
    bank_account_number: nullable(identifier),
    payment_reference: nullable(identifier),
    payment_means_code: nullable(str),
    mandate_reference: nullable(identifier),
  },
  'PaymentDetail',
);

const TaxDetailInput = objectOf(
  {
    amount: nullable(money2),
    rate: nullable(percentLoose),
    tax_code: nullable(enumOf(TAX_CODES, 'tax_code')),
    taxable_amount: nullable(money2),
  },
  'TaxDetail',
);

const AttachmentInput = objectOf(
  {
    file_name: required(str),
    file_type: nullable(str),
    file_size: nullable(integer),
    file_data: nullable(base64),
  },
  'Attachment',
  ['file_name'],
);

const s = nullable(str);
/** The create request (spec "Document (create request and response)"); only items is required. */
export const DocumentCreateCodec = objectOf(
  {
    document_type: nullable(enumOf(DOCUMENT_TYPES, 'document_type')),
    state: nullable(only('DRAFT', 'state', 'a created document is a DRAFT; it changes state by being sent')),
    direction: nullable(only('OUTBOUND', 'direction', 'inbound documents come only from delivery')),
    invoice_id: nullable(identifier),
    invoice_date: nullable(date),
    due_date: nullable(date),
    note: s,
    purchase_order: nullable(identifier),
    payment_term: s,
    currency: nullable(currency),
    vendor_name: s,
    vendor_email: s,
    vendor_tax_id: nullable(taxId),
    vendor_company_id: nullable(identifier),
    vendor_peppol_id: nullable(peppolId),
    vendor_address: s,
    vendor_address_recipient: s,
    customer_name: s,
    customer_id: nullable(identifier),
    customer_email: s,
    customer_tax_id: nullable(taxId),
    customer_company_id: nullable(identifier),
    customer_peppol_id: nullable(peppolId),
    customer_address: s,
    customer_address_recipient: s,
    billing_address: s,
    billing_address_recipient: s,
    shipping_address: s,
    shipping_address_recipient: s,
    remittance_address: s,
    remittance_address_recipient: s,
    service_address: s,
    service_address_recipient: s,
    service_start_date: nullable(date),
    service_end_date: nullable(date),
    tax_code: nullable(enumOf(TAX_CODES, 'tax_code')),
    vatex: nullable(enumOf(VATEX_CODES, 'vatex')),
    vatex_note: s,
    subtotal: nullable(positiveMoney2),
    total_discount: nullable(money2),
    total_tax: nullable(positiveMoney2),
    invoice_total: nullable(positiveMoney2),
    amount_due: nullable(positiveMoney2),
    previous_unpaid_balance: nullable(positiveMoney2),
    payment_details: nullable(arrayOf(PaymentDetailInput)),
    tax_details: nullable(arrayOf(TaxDetailInput)),
    items: required(arrayOf(LineItemInput, 1)),
    attachments: nullable(arrayOf(AttachmentInput)),
    allowances: nullable(arrayOf(AllowanceChargeInput)),
    charges: nullable(arrayOf(AllowanceChargeInput)),
  },
  'DocumentCreate',
  ['items'],
);
type DocumentCreateRequest = t.TypeOf<typeof DocumentCreateCodec>;

// ---------------------------------------------------------------------------------------------

const isWrapper = (type: t.Decoder<unknown, unknown>): boolean =>
  type instanceof t.IntersectionType || type instanceof t.UnionType;

/** io-ts context -> FastAPI loc. Keys added by intersections/unions are io-ts internals, not fields. */
const locOf = (context: t.Context): (string | number)[] => {
  const loc: (string | number)[] = ['body'];
  for (let i = 1; i < context.length; i++) {
    const parent = context[i - 1]!.type;
    if (isWrapper(parent)) continue;
    const key = context[i]!.key;
    const isIndex = /^\d+$/.test(key) && (parent instanceof t.ArrayType || parent.name.includes('Array<'));
    loc.push(isIndex ? Number(key) : key);
  }
  return loc;
};

const toInputErrors = (errors: t.Errors): InputError[] => {
  const seen = new Set<string>();
  const out: InputError[] = [];
  for (const e of errors) {
    const [type, msg] = (e.message ?? `value_error${SEP}Invalid value`).split(SEP) as [string, string];
    const loc = locOf(e.context);
    const key = JSON.stringify(loc);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ loc, msg, type });
    // Enough to fix a request; a body of 50,000 bad lines must not get a 50,000-entry answer.
    if (out.length === MAX_INPUT_ERRORS) break;
  }
  return out;
};

const MAX_INPUT_ERRORS = 100;

/** `['body','items',0,'tax_rate']` -> `items[0].tax_rate` (the `field` of field-level messages). */
export const fieldPath = (loc: ReadonlyArray<string | number>): string => {
  let out = '';
  loc.forEach((part, i) => {
    if (i === 0 && part === 'body') return;
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  });
  return out;
};

type AllowanceChargeIn = t.TypeOf<typeof AllowanceChargeInput>;
const toAllowanceCharge = (a: AllowanceChargeIn): AllowanceCharge => ({
  reason: a.reason ?? null,
  reason_code: a.reason_code ?? null,
  multiplier_factor: a.multiplier_factor ?? null,
  amount: a.amount ?? null,
  base_amount: a.base_amount ?? null,
  tax_rate: a.tax_rate ?? null,
  tax_code: (a.tax_code ?? null) as TaxCode | null,
});

const toLineItem = (l: t.TypeOf<typeof LineItemInput>): LineItem => ({
  ...emptyLineItem(),
  amount: l.amount ?? null,
  date: l.date ?? null,
  description: l.description ?? null,
  quantity: l.quantity ?? null,
  product_code: l.product_code ?? null,
  tax: l.tax ?? null,
  tax_rate: l.tax_rate ?? null,
  tax_code: (l.tax_code ?? null) as TaxCode | null,
  unit: l.unit ?? l.unit_code ?? null,
  unit_price: l.unit_price ?? null,
  allowances: (l.allowances ?? []).map(toAllowanceCharge),
  charges: (l.charges ?? []).map(toAllowanceCharge),
});

/** Maps a decoded request onto the document model, applying the spec's defaults. */
const toDocument = (i: DocumentCreateRequest): Document => {
  const d = emptyDocument();
  const pick = <K extends keyof Document>(k: K, v: Document[K] | null | undefined) => {
    if (v !== undefined && v !== null) d[k] = v;
  };
  pick('document_type', i.document_type as DocumentType | null | undefined);
  // state and direction are checked above (only DRAFT and OUTBOUND pass) but never taken from the
  // body: a created document is an outbound draft because it is created, not because it says so.
  pick('currency', i.currency);
  pick('tax_code', i.tax_code as TaxCode | null | undefined);
  const strings = [
    'invoice_id',
    'invoice_date',
    'due_date',
    'note',
    'purchase_order',
    'payment_term',
    'vendor_name',
    'vendor_email',
    'vendor_tax_id',
    'vendor_company_id',
    'vendor_peppol_id',
    'vendor_address',
    'vendor_address_recipient',
    'customer_name',
    'customer_id',
    'customer_email',
    'customer_tax_id',
    'customer_company_id',
    'customer_peppol_id',
    'customer_address',
    'customer_address_recipient',
    'billing_address',
    'billing_address_recipient',
    'shipping_address',
    'shipping_address_recipient',
    'remittance_address',
    'remittance_address_recipient',
    'service_address',
    'service_address_recipient',
    'service_start_date',
    'service_end_date',
    'vatex_note',
  ] as const;
  for (const k of strings) d[k] = (i[k] as string | null | undefined) ?? null;
  d.vatex = (i.vatex ?? null) as VatexCode | null;
  d.subtotal = i.subtotal ?? null;
  d.total_discount = i.total_discount ?? null;
  d.total_tax = i.total_tax ?? null;
  d.invoice_total = i.invoice_total ?? null;
  d.amount_due = i.amount_due ?? null;
  d.previous_unpaid_balance = i.previous_unpaid_balance ?? null;
  d.payment_details = (i.payment_details ?? []).map((p): PaymentDetail => ({
    iban: p.iban ?? null,
    swift: p.swift ?? null,
    bank_account_number: p.bank_account_number ?? null,
    payment_reference: p.payment_reference ?? null,
    payment_means_code: p.payment_means_code ?? null,
    mandate_reference: p.mandate_reference ?? null,
  }));
  d.tax_details = (i.tax_details ?? []).map((x): TaxDetail => ({
    amount: x.amount ?? null,
    rate: x.rate ?? null,
    tax_code: (x.tax_code ?? null) as TaxCode | null,
    taxable_amount: x.taxable_amount ?? null,
  }));
  d.items = (i.items ?? []).map(toLineItem);
  d.attachments = (i.attachments ?? []).map((a): Attachment => ({
    id: null,
    file_name: a.file_name ?? '',
    file_type: a.file_type ?? null,
    file_size: a.file_size ?? null,
    file_data: a.file_data ?? null,
    file_url: null,
  }));
  d.allowances = (i.allowances ?? []).map(toAllowanceCharge);
  d.charges = (i.charges ?? []).map(toAllowanceCharge);
  return d;
};

/** Decodes a create request body into the document model, or the FastAPI-style list of field errors. */
export const decodeDocumentInput = (
  body: unknown,
  limits: DocumentSizeLimits = DEFAULT_DOCUMENT_SIZE_LIMITS,
): DecodeResult => {
  // Counted before decoding, so a body far over the limit costs nothing more.
  const object = (typeof body === 'object' && body !== null ? body : {}) as { items?: unknown; attachments?: unknown };
  const over: InputError[] = [];
  if (Array.isArray(object.items) && object.items.length > limits.maxLines) {
    over.push({ loc: ['body', 'items'], msg: linesLimitMessage(limits.maxLines), type: 'limit_exceeded' });
  }
  if (Array.isArray(object.attachments) && object.attachments.length > limits.maxAttachments) {
    over.push({
      loc: ['body', 'attachments'],
      msg: attachmentsLimitMessage(limits.maxAttachments),
      type: 'limit_exceeded',
    });
  }
  if (over.length > 0) return { ok: false, errors: over };
  const r = DocumentCreateCodec.decode(body);
  if (r._tag === 'Left') return { ok: false, errors: toInputErrors(r.left) };
  return { ok: true, value: toDocument(r.right) };
};
