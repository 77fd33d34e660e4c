import type { DocumentType, TaxCode } from '../invoice/documentModel.js';

/*
 * The words invoices use for their fields, in English, Dutch, French and German (our own
 * renderings use the English ones of documentPresentation.LABELS). Each pattern matches a label
 * at the start of a cell, with what follows it (after an optional colon) being the value.
 */

const label = (alternatives: string): RegExp => new RegExp(`^(?:${alternatives})(?=[\\s:#.]|$)\\s*(?:[:#.]\\s*)?`, 'i');

/** A heading: the whole cell, or the heading, a colon and the first line of the block ("Bill to: Globex NV"). */
const heading = (alternatives: string): RegExp => new RegExp(`^(?:${alternatives})\\s*(?::\\s*(.*))?$`, 'i');

export type FieldName =
  | 'number'
  | 'issueDate'
  | 'dueDate'
  | 'purchaseOrder'
  | 'creditedInvoice'
  | 'servicePeriod'
  | 'currency'
  | 'iban'
  | 'bic'
  | 'paymentReference'
  | 'paymentTerms'
  | 'note';

/** Ordered: the first field whose label matches wins ("Invoice date" before "Invoice"). */
export const FIELD_LABELS: ReadonlyArray<[FieldName, RegExp]> = [
  [
    'creditedInvoice',
    label(
      "credited invoice|original invoice|corrects invoice|refers to invoice|invoice reference|related invoice|betreft factuur|oorspronkelijke factuur|gecrediteerde factuur|facture d'origine|facture concernée|facture corrigée|ursprüngliche rechnung|bezug(?:\\s+auf)?\\s+rechnung|korrigierte rechnung",
    ),
  ],
  [
    'issueDate',
    label(
      "issue date|invoice date|date of issue|document date|credit note date|factuurdatum|datum factuur|creditnotadatum|date de (?:la )?facture|date d'émission|date de l'avoir|rechnungsdatum|ausstellungsdatum|datum der rechnung|belegdatum|date|datum",
    ),
  ],
  [
    'dueDate',
    label(
      "due date|payment due(?: date)?|due by|pay by|vervaldatum|vervaldag|uiterste betaaldatum|te betalen vóór|te betalen voor|date d'échéance|échéance|à payer avant le|payable avant le|fälligkeitsdatum|fällig am|fällig bis|zahlbar bis|due",
    ),
  ],
  [
    'number',
    label(
      "invoice number|invoice no|invoice nr|invoice #|credit note number|credit note no|debit note number|document number|number|factuurnummer|factuurnr|factuur nr|creditnotanummer|creditnota nr|nummer|numéro de facture|n° de facture|facture n°|numéro d'avoir|avoir n°|numéro|rechnungsnummer|rechnungs-nr|rechnung nr|gutschriftsnummer|gutschrift nr|belegnummer",
    ),
  ],
  [
    'purchaseOrder',
    label(
      'purchase order|order reference|order number|po number|po no|p\\.o\\.|your reference|your order|bestelnummer|bestelbon|bestelling|uw referentie|uw bestelling|bon de commande|commande n°|votre référence|votre commande|bestellnummer|ihre bestellung|auftragsnummer|ihr zeichen',
    ),
  ],
  [
    'servicePeriod',
    label(
      'service period|billing period|invoice period|period|leveringsperiode|factuurperiode|periode|période de facturation|période|leistungszeitraum|abrechnungszeitraum|zeitraum',
    ),
  ],
  ['currency', label('currency|valuta|munt|devise|monnaie|währung')],
  ['iban', label('iban')],
  ['bic', label('bic/swift|swift/bic|bic|swift')],
  [
    'paymentReference',
    label(
      'payment reference|structured (?:communication|reference)|remittance information|reference|gestructureerde mededeling|mededeling|betalingskenmerk|betalingsreferentie|kenmerk|communication structurée|communication|référence de paiement|verwendungszweck|zahlungsreferenz',
    ),
  ],
  [
    'paymentTerms',
    label(
      'payment terms|terms of payment|terms|betalingsvoorwaarden|betalingstermijn|betaalvoorwaarden|conditions de paiement|conditions de règlement|modalités de paiement|zahlungsbedingungen|zahlungsziel',
    ),
  ],
  ['note', label('notes?|remarks?|reason|opmerkingen?|reden|remarques?|motif|raison|bemerkungen?|hinweis|grund')],
];

export type PartyRole = 'seller' | 'buyer' | 'delivery';

/** Headings of party blocks: the whole cell is the heading (a name may follow after a colon). */
export const PARTY_HEADINGS: ReadonlyArray<[PartyRole, RegExp]> = [
  [
    'delivery',
    heading(
      'deliver to|ship to|delivery address|shipping address|leveringsadres|afleveradres|leveradres|adresse de livraison|livrer à|lieferadresse|lieferanschrift|versandadresse',
    ),
  ],
  [
    'seller',
    heading(
      'seller|supplier|vendor|from|issued by|sold by|verkoper|leverancier|van|fournisseur|vendeur|émetteur|émis par|lieferant|verkäufer|rechnungssteller|absender',
    ),
  ],
  [
    'buyer',
    heading(
      'buyer|customer|client|bill to|billed to|invoice to|invoiced to|sold to|to|koper|klant|afnemer|factuur aan|gefactureerd aan|aan|acheteur|facturé à|facturer à|destinataire|kunde|käufer|rechnungsempfänger|rechnungsadresse|an',
    ),
  ],
];

export type PartyDetail = 'vatNumber' | 'companyId' | 'peppolId' | 'customerId' | 'contact' | 'email' | 'ignored';

export const PARTY_DETAIL_LABELS: ReadonlyArray<[PartyDetail, RegExp]> = [
  ['peppolId', label('peppol id|peppol')],
  [
    'vatNumber',
    label(
      'vat number|vat no|vat id|vat reg(?:istration)?\\.? no|vat|btw-nummer|btw nummer|btw nr|btw-id|btw id|btw|tva intracommunautaire|n° tva|numéro de tva|n° de tva|tva|ust-idnr|ust-id|ustidnr|umsatzsteuer-id|ust\\.-id|mwst-nr',
    ),
  ],
  [
    'companyId',
    label(
      "company id|company number|company reg(?:istration)?\\.? no|registration number|enterprise number|ondernemingsnummer|ondernemingsnr|kvk-nummer|kvk nummer|kvk|chamber of commerce|siret|siren|rcs|n° d'entreprise|numéro d'entreprise|bce|handelsregister|registernummer|hrb|cbe",
    ),
  ],
  [
    'customerId',
    label(
      'customer id|customer number|customer no|client id|account number|klantnummer|klantnr|n° client|numéro client|numéro de client|kundennummer|kunden-nr',
    ),
  ],
  [
    'contact',
    label(
      "contact|attn|attention|t\\.a\\.v\\.|ter attentie van|à l'attention de|a l'attention de|z\\. ?hd\\.|ansprechpartner",
    ),
  ],
  ['email', label('e-mail|email|mail|courriel')],
  ['ignored', label('tel|tél|phone|telephone|téléphone|telefoon|telefon|fax|gsm|mobile|web|website|www|site')],
];

export type TotalKind =
  | 'sumOfLines'
  | 'allowanceTotal'
  | 'chargeTotal'
  | 'subtotal'
  | 'vatTotal'
  | 'total'
  | 'prepaid'
  | 'previousBalance'
  | 'amountDue';

/** Ordered: specific labels before general ones ("Total excl. VAT" before "Total", "Total VAT" before "VAT"). */
export const TOTAL_LABELS: ReadonlyArray<[TotalKind, RegExp]> = [
  [
    'sumOfLines',
    /^(?:sum of lines|line total|total lines|lines total|totaal regels|som van de regels|total des lignes|summe (?:der )?positionen|positionssumme)\b/i,
  ],
  ['allowanceTotal', /^(?:allowances|discounts|total discounts?|kortingen|remises|rabatte|nachlässe)\b/i],
  ['chargeTotal', /^(?:charges|surcharges|toeslagen|frais|zuschläge)\b/i],
  [
    'amountDue',
    /^(?:amount due|amount to pay|amount payable|balance due|total due|amount to refund|amount to be refunded|to pay|te betalen|totaal te betalen|openstaand bedrag|terug te betalen|net à payer|montant à payer|reste à payer|montant dû|à rembourser|zahlbetrag|zu zahlen|zu zahlender betrag|offener betrag|gesamt zu zahlen|erstattungsbetrag)\b/i,
  ],
  [
    'prepaid',
    /^(?:paid in advance|prepaid|prepayment|already paid|amount paid|reeds betaald|voorschot|vooruitbetaald|acompte|déjà payé|déjà réglé|anzahlung|bereits bezahlt|geleistete anzahlung)\b/i,
  ],
  [
    'previousBalance',
    /^(?:previous (?:unpaid )?balance|balance brought forward|vorig saldo|openstaand saldo|solde précédent|vorheriger saldo|saldovortrag)\b/i,
  ],
  [
    'subtotal',
    /^(?:total excl\.? vat|total excluding vat|total ex\.? vat|total before vat|total net|net total|net amount|subtotal|sub-total|sub total|taxable amount|totaal excl\.? btw|totaal exclusief btw|subtotaal|totaal excl|netto bedrag|maatstaf van heffing|total ht|montant ht|total hors taxes?|sous-total|sous total|total h\.t\.|nettobetrag|gesamtbetrag netto|summe netto|zwischensumme|netto|gesamt netto|rechnungsbetrag netto)\b/i,
  ],
  [
    'vatTotal',
    /^(?:(?:plus|zzgl\.?|zuzüglich|majoré de)\s+)?(?:total vat|vat total|vat amount|total tax|tax amount|vat|tax|totaal btw|btw-bedrag|btw bedrag|btw|total tva|montant tva|montant de la tva|tva|mwst\.?|mehrwertsteuer|umsatzsteuer|ust\.?|summe mwst|steuerbetrag)\b/i,
  ],
  [
    'total',
    /^(?:total incl\.? vat|total including vat|total inc\.? vat|grand total|invoice total|total amount|total|totaal incl\.? btw|totaal inclusief btw|totaalbedrag|totaal|factuurbedrag|total ttc|montant ttc|total toutes taxes comprises|montant total|gesamtbetrag brutto|gesamtbetrag|bruttobetrag|rechnungsbetrag|endbetrag|summe brutto|gesamtsumme|rechnungssumme)\b/i,
  ],
];

/** Document-level discounts and surcharges printed among the totals ("Discount 5%  −12.50"). */
export const ALLOWANCE_LINE =
  /^(?:allowance|discount|rebate|korting|remise|rabais|ristourne|rabatt|nachlass|skonto)\b/i;
export const CHARGE_LINE =
  /^(?:charge|shipping|delivery|freight|handling|surcharge|verzendkosten|transportkosten|leveringskosten|toeslag|frais de port|frais de livraison|frais d'expédition|versandkosten|frachtkosten|lieferkosten|zuschlag)\b/i;

export type ColumnKind = 'number' | 'code' | 'description' | 'quantity' | 'unit' | 'unitPrice' | 'vat' | 'amount';

/** Column headings of line tables; a cell is a heading when its whole text matches. */
export const COLUMN_LABELS: ReadonlyArray<[ColumnKind, RegExp]> = [
  ['number', /^(?:#|no\.?|nr\.?|pos\.?|n°|line|lijn|ligne|zeile)$/i],
  [
    'code',
    /^(?:code|item code|sku|article no\.?|art\.? ?nr\.?|artikelnummer|artikelnr\.?|réf\.?|référence|ref\.?|product code)$/i,
  ],
  [
    'description',
    /^(?:description|item|items|article|product|products|service|services|designation|omschrijving|artikel|product|dienst|omschrijving product|désignation|libellé|produit|prestation|bezeichnung|beschreibung|leistung|artikelbezeichnung|artikelbeschreibung|text)$/i,
  ],
  ['quantity', /^(?:quantity|qty\.?|quant\.?|aantal|hoeveelheid|quantité|qté|menge|anzahl|anz\.?)$/i],
  ['unit', /^(?:unit|uom|u\.?m\.?|eenheid|unité|einheit|me)$/i],
  [
    'unitPrice',
    /^(?:unit price|price|unit cost|rate|price per unit|prijs|eenheidsprijs|stukprijs|prijs per eenheid|prix unitaire|prix|p\.?u\.?|pu ht|prix unitaire ht|p\.u\. ht|einzelpreis|preis|e-preis|stückpreis|preis\/einheit)(?:\s*\([A-Z]{3}\))?$/i,
  ],
  [
    'vat',
    /^(?:vat|vat %|vat rate|tax|tax %|btw|btw %|btw-tarief|tarief|tva|tva %|taux tva|taux|mwst\.?|mwst\.? ?%|ust\.?|ust\.? ?%|steuer|steuersatz|%)$/i,
  ],
  [
    'amount',
    /^(?:amount|total|line total|net amount|net|amount excl\.? vat|bedrag|totaal|bedrag excl\.? btw|montant|montant ht|total ht|betrag|gesamt|gesamtpreis|summe|nettobetrag|gesamt netto)(?:\s*\([A-Z]{3}\))?$/i,
  ],
];

/** Headings of a VAT breakdown table (ours: "VAT category | Rate | Taxable amount | VAT amount | Exemption reason"). */
export const VAT_TABLE_HEADING =
  /^(?:vat category|vat breakdown|vat summary|btw-specificatie|btw overzicht|récapitulatif tva|détail tva|mwst-übersicht|steuerübersicht)$/i;
export const ALLOWANCE_TABLE_HEADING =
  /^(?:allowance or charge|allowances and charges|kortingen en toeslagen|remises et frais|zu- und abschläge)$/i;

export const DOCUMENT_TITLES: ReadonlyArray<[DocumentType, RegExp]> = [
  ['SELFBILLING_CREDIT_NOTE', /\bself[- ]billed credit note\b|\bself[- ]billing credit note\b/i],
  [
    'SELFBILLING_INVOICE',
    /\bself[- ]billed invoice\b|\bself[- ]billing invoice\b|\bautofacturation\b|\bselfbilling\b/i,
  ],
  [
    'CREDIT_NOTE',
    /\bcredit ?note\b|\bcredit memo\b|\bcreditnota\b|\bcreditfactuur\b|\bfacture d'avoir\b|\bavoir\b|\bnote de crédit\b|\bgutschrift\b|\brechnungskorrektur\b|\bstornorechnung\b/i,
  ],
  ['DEBIT_NOTE', /\bdebit ?note\b|\bdebetnota\b|\bnote de débit\b|\bbelastungsanzeige\b/i],
  ['INVOICE', /\binvoice\b|\bfactuur\b|\bfacture\b|\brechnung\b|\btax invoice\b/i],
];

/** Category hints in free text, for documents without a per-line VAT category. */
export const CATEGORY_PHRASES: ReadonlyArray<[TaxCode, RegExp]> = [
  [
    'AE',
    /reverse[- ]charge|autoliquidation|btw verlegd|verlegd|verleggingsregeling|steuerschuldnerschaft des leistungsempfängers|umkehr der steuerschuld/i,
  ],
  [
    'K',
    /intra[- ]community (?:supply|delivery)|intracommunautaire levering|livraison intracommunautaire|innergemeinschaftliche lieferung|intra-eu supply/i,
  ],
  ['G', /export outside the eu|exempt export|uitvoer|exportation|ausfuhrlieferung|steuerfreie ausfuhr/i],
  ['O', /outside the scope of (?:eu )?vat|not subject to vat|niet onderworpen aan btw|hors champ|nicht steuerbar/i],
  [
    'E',
    /exempt from vat|vat exempt|vrijgesteld van btw|exonéré de tva|exonération de tva|tva non applicable|steuerfrei|steuerbefreit|franchise en base/i,
  ],
];

/** The category a printed "S Standard rate" / "AE Reverse charge" starts with. */
export const CATEGORY_CODE = /^(S|Z|E|AE|K|G|O|L|M|B)\b/;
