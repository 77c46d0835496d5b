import { Parser } from 'htmlparser2';
import { EdgarParseError } from '../edgar.parse-error';
import { decodeXml, xmlLocalName } from '../xml-text';
import { classifyTransactionCode } from './form4.codes';
import type {
  Form4Document,
  Form4Footnote,
  Form4Number,
  Form4ParseContext,
  Form4ReportingOwner,
  Form4Row,
  Form4RowKind,
  Form4Signature,
  Form4SubmissionHeader,
  Form4Table,
} from './form4.types';

const SOURCE = 'Form 4 ownership document';

/** The four row elements and the table each belongs in. */
const ROW_ELEMENTS: Record<string, { table: Form4Table; kind: Form4RowKind; parent: string }> = {
  nonDerivativeTransaction: { table: 'non_derivative', kind: 'transaction', parent: 'nonDerivativeTable' },
  nonDerivativeHolding: { table: 'non_derivative', kind: 'holding', parent: 'nonDerivativeTable' },
  derivativeTransaction: { table: 'derivative', kind: 'transaction', parent: 'derivativeTable' },
  derivativeHolding: { table: 'derivative', kind: 'holding', parent: 'derivativeTable' },
};

const INNER_WHITESPACE_RUN = /\s\s|[\t\n\r\f\v]/;

/** Decoded text with whitespace runs collapsed and trimmed; null when nothing is left. */
function clean(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  let v = decodeXml(raw).trim();
  // Most values are one short word; only prose (footnotes, remarks) has runs to collapse.
  if (INNER_WHITESPACE_RUN.test(v)) v = v.replace(/\s+/g, ' ');
  return v === '' ? null : v;
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

function numberField(raw: string | undefined): Form4Number | null {
  const text = clean(raw);
  if (text === null) return null;
  // Thousands separators are not valid xsd:decimal, but a value written with them is still that number.
  const plain = text.replace(/,/g, '');
  return { text, value: DECIMAL.test(plain) ? Number(plain) : null };
}

/** Ownership XML writes booleans as 1/0 or true/false. */
function booleanField(raw: string | undefined): boolean | null {
  const v = clean(raw)?.toLowerCase();
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  return null;
}

function cikOf(raw: string | undefined): string | null {
  const v = clean(raw);
  return v !== null && /^\d{1,10}$/.test(v) ? v.padStart(10, '0') : v;
}

/** 0001104659-25-025206 from either the dashed or the 18-digit form; anything else as given. */
function dashedAccession(raw: string): string {
  const v = raw.trim();
  return /^\d{18}$/.test(v) ? `${v.slice(0, 10)}-${v.slice(10, 12)}-${v.slice(12)}` : v;
}

// "Rule 10b5-1", "RULE 10B5-1", "10b5-1(c)", with any dash.
const RULE_10B5_1 = /10b5\s*[-\u2010-\u2015]\s*1/i;
// "... were not made pursuant to a Rule 10b5-1 plan": a mention that denies the plan.
const NEGATED_10B5_1 = /\b(?:not|no|nor|neither|without)\b[^.;]{0,80}?10b5\s*[-\u2010-\u2015]\s*1/i;

/** Whether a footnote states that a transaction was made under a Rule 10b5-1 plan (some sentence mentions the rule without denying it). */
export function mentionsRule10b5_1Plan(text: string): boolean {
  if (!RULE_10B5_1.test(text)) return false;
  return text.split(/(?<=[.;])\s+/).some((sentence) => RULE_10B5_1.test(sentence) && !NEGATED_10B5_1.test(sentence));
}

// The complete submission (.txt), its header (.hdr.sgml), pre-2000 IMS files, and EDGAR's
// dissemination feed, whose files open with <SUBMISSION> and a tag-per-line header.
const SUBMISSION_START = /^\s*<(?:SEC-DOCUMENT|SEC-HEADER|IMS-DOCUMENT|IMS-HEADER|SUBMISSION|DOCUMENT)>/;

/** The header of an EDGAR complete-submission `.txt` (`KEY:\tvalue` lines, or `<TAG>value` in `.hdr.sgml` and the feed's `<SUBMISSION>`). */
function readSubmissionHeader(text: string): Form4SubmissionHeader {
  let end = text.indexOf('</SEC-HEADER>');
  if (end < 0) end = text.indexOf('<DOCUMENT>');
  const block = end < 0 ? text : text.slice(0, end);
  const filed = /^(?:FILED AS OF DATE:|<FILING-DATE>)[ \t]*(\d{4})(\d{2})(\d{2})/m.exec(block);
  return {
    accession: /^(?:ACCESSION NUMBER:|<ACCESSION-NUMBER>)[ \t]*(\d{10}-\d{2}-\d{6})/m.exec(block)?.[1] ?? null,
    submissionType: /^(?:CONFORMED SUBMISSION TYPE:|<TYPE>)[ \t]*(\S+)/m.exec(block)?.[1] ?? null,
    filedAsOfDate: filed ? `${filed[1]}-${filed[2]}-${filed[3]}` : null,
    acceptanceDateTime: /<ACCEPTANCE-DATETIME>[ \t]*(\d{14})/.exec(block)?.[1] ?? null,
  };
}

/**
 * The ownership XML inside the bytes: the whole text for a bare XML file, else the first
 * `<XML>...</XML>` section of a complete submission that holds an `ownershipDocument`.
 */
function locateOwnershipXml(text: string, source: string): { xml: string; header: Form4SubmissionHeader | null } {
  if (!SUBMISSION_START.test(text.slice(0, 256))) return { xml: text, header: null };
  const header = readSubmissionHeader(text);
  for (let from = 0; ; ) {
    const open = text.indexOf('<XML>', from);
    if (open < 0) throw new EdgarParseError(source, 'complete submission without an <XML> ownershipDocument');
    const close = text.indexOf('</XML>', open);
    if (close < 0) throw new EdgarParseError(source, 'malformed: <XML> section without </XML>');
    const inner = text.slice(open + '<XML>'.length, close);
    if (inner.includes('<ownershipDocument')) return { xml: inner, header };
    from = close + '</XML>'.length;
  }
}

interface RowDraft {
  table: Form4Table;
  kind: Form4RowKind;
  sequence: number;
  /** Depth of the row element in the element stack. */
  depth: number;
  /** Offset of the row's `<` in the XML text. */
  start: number;
  /** Text of each leaf, keyed by the element the value belongs to (`transactionShares` for `transactionShares/value`). */
  fields: Map<string, string>;
  footnoteIds: Record<string, string[]>;
  quote: string;
}

/** What the tokenizer pass collects; turned into a Form4Document once footnotes are known. */
interface OwnershipDraft {
  documentFields: Map<string, string>;
  issuerFields: Map<string, string>;
  owners: Array<Map<string, string>>;
  rows: RowDraft[];
  footnotes: Form4Footnote[];
  signatures: Form4Signature[];
}

/**
 * One pass of htmlparser2's tokenizer (xmlMode, entities left raw so offsets and quotes are the
 * source's own) over an `ownershipDocument`. Keeps only the text of leaf elements, routed by where
 * they sit: document fields, issuer, reporting owners, rows, footnotes, signatures.
 */
class OwnershipReader {
  private readonly parser: Parser;
  /** Local names of the open elements; stack[0] is the root. */
  private readonly stack: string[] = [];
  private readonly draft: OwnershipDraft = {
    documentFields: new Map(),
    issuerFields: new Map(),
    owners: [],
    rows: [],
    footnotes: [],
    signatures: [],
  };
  private readonly rowCounts: Record<Form4Table, number> = { non_derivative: 0, derivative: 0 };
  private row: RowDraft | null = null;
  private footnoteId: string | null = null;
  /** Text of the element at `textDepth`, valid while no child has opened in it (leaf text). */
  private text = '';
  private textDepth = -1;
  private inCdata = false;
  private sawRoot = false;
  private rootClosed = false;

  constructor(private readonly xml: string, private readonly source: string) {
    this.parser = new Parser(
      {
        // onopentagname + onattribute rather than onopentag: no attribute object for every tag.
        onopentagname: (name) => this.open(xmlLocalName(name)),
        onattribute: (name, value) => this.attribute(name, value),
        ontext: (t) => {
          // CDATA text arrives raw; escape `&` so the one decoding step in clean() gives it back unchanged.
          if (this.textDepth >= 0) this.text += this.inCdata ? t.replace(/&/g, '&amp;') : t;
        },
        oncdatastart: () => {
          this.inCdata = true;
        },
        oncdataend: () => {
          this.inCdata = false;
        },
        onclosetag: (name, isImplied) => this.close(xmlLocalName(name), isImplied),
      },
      { xmlMode: true, decodeEntities: false },
    );
  }

  read(): OwnershipDraft {
    this.parser.end(this.xml);
    if (!this.sawRoot) throw new EdgarParseError(this.source, 'not an ownership document: no ownershipDocument element');
    return this.draft;
  }

  private malformed(message: string): never {
    throw new EdgarParseError(this.source, `malformed ownership XML: ${message}`);
  }

  private open(name: string): void {
    const depth = this.stack.length;
    const parent = this.stack[depth - 1];
    if (depth === 0) {
      if (this.rootClosed) this.malformed(`<${name}> after the root element`);
      if (name !== 'ownershipDocument') throw new EdgarParseError(this.source, `not an ownership document: root element is <${name}>`);
      this.sawRoot = true;
    }
    this.stack.push(name);
    this.text = '';
    this.textDepth = depth;

    if (this.row) return;
    if (depth === 1) {
      if (name === 'reportingOwner') this.draft.owners.push(new Map());
      else if (name === 'ownerSignature') this.draft.signatures.push({ name: null, date: null });
    } else if (depth === 2) {
      const rowElement = ROW_ELEMENTS[name];
      if (rowElement && rowElement.parent === parent) {
        this.row = {
          table: rowElement.table,
          kind: rowElement.kind,
          sequence: this.rowCounts[rowElement.table]++,
          depth,
          start: this.parser.startIndex,
          fields: new Map(),
          footnoteIds: {},
          quote: '',
        };
      }
    }
  }

  /** An attribute of the element just opened: only footnote ids matter. */
  private attribute(name: string, value: string): void {
    if (name !== 'id') return;
    const depth = this.stack.length;
    const element = this.stack[depth - 1];
    const row = this.row;
    if (row && element === 'footnoteId') {
      const id = clean(value);
      // The field that cites the footnote is the element holding <footnoteId>.
      const field = this.stack[depth - 2];
      if (id !== null && field !== undefined) (row.footnoteIds[field] ??= []).push(id);
    } else if (!row && element === 'footnote' && depth === 3 && this.stack[1] === 'footnotes') {
      this.footnoteId = clean(value);
    }
  }

  /** Whether the tag that just ended is self-closing (`<footnoteId id="F1"/>`): its `>` follows a `/`. */
  private endsSelfClosingTag(): boolean {
    const end = this.parser.endIndex;
    return this.xml.charCodeAt(end) === 0x3e && this.xml.charCodeAt(end - 1) === 0x2f;
  }

  private close(name: string, isImplied: boolean): void {
    this.stack.pop();
    const depth = this.stack.length;
    // htmlparser2 reports a self-closing tag's close as implied too; any other implied close is a missing end tag.
    if (isImplied && !this.endsSelfClosingTag()) this.malformed(`<${name}> is not closed`);
    const isLeaf = this.textDepth === depth;
    const text = isLeaf ? this.text : '';
    this.text = '';
    this.textDepth = -1;
    if (depth === 0) {
      this.rootClosed = true;
      return;
    }

    const row = this.row;
    if (row) {
      if (depth === row.depth) {
        row.quote = this.xml.slice(row.start, this.parser.endIndex + 1);
        this.draft.rows.push(row);
        this.row = null;
      } else if (isLeaf && name !== 'footnoteId') {
        const field = name === 'value' ? this.stack[depth - 1] : name;
        if (field !== undefined) row.fields.set(field, text);
      }
      return;
    }
    if (!isLeaf) return;
    const section = this.stack[1];
    if (depth === 1) {
      this.draft.documentFields.set(name, text);
    } else if (section === 'issuer') {
      this.draft.issuerFields.set(name, text);
    } else if (section === 'reportingOwner') {
      // Names are unique across reportingOwnerId, -Address and -Relationship.
      this.draft.owners.at(-1)?.set(name, text);
    } else if (section === 'footnotes' && name === 'footnote' && depth === 2) {
      if (this.footnoteId !== null) this.draft.footnotes.push({ id: this.footnoteId, text: clean(text) ?? '' });
      this.footnoteId = null;
    } else if (section === 'ownerSignature') {
      const signature = this.draft.signatures.at(-1);
      if (signature && name === 'signatureName') signature.name = clean(text);
      else if (signature && name === 'signatureDate') signature.date = clean(text);
    }
  }
}

function toOwner(fields: Map<string, string>): Form4ReportingOwner {
  const t = (k: string) => clean(fields.get(k));
  return {
    cik: cikOf(fields.get('rptOwnerCik')),
    name: t('rptOwnerName'),
    address: {
      street1: t('rptOwnerStreet1'),
      street2: t('rptOwnerStreet2'),
      city: t('rptOwnerCity'),
      state: t('rptOwnerState'),
      zipCode: t('rptOwnerZipCode'),
      stateDescription: t('rptOwnerStateDescription'),
    },
    isDirector: booleanField(fields.get('isDirector')) ?? false,
    isOfficer: booleanField(fields.get('isOfficer')) ?? false,
    officerTitle: t('officerTitle'),
    isTenPercentOwner: booleanField(fields.get('isTenPercentOwner')) ?? false,
    isOther: booleanField(fields.get('isOther')) ?? false,
    otherText: t('otherText'),
  };
}

function toRow(draft: RowDraft, aff10b5One: boolean | null, planFootnotes: ReadonlySet<string>): Form4Row {
  const f = draft.fields;
  const t = (k: string) => clean(f.get(k));
  const n = (k: string) => numberField(f.get(k));
  const transactionCode = t('transactionCode');
  const cited = new Set(Object.values(draft.footnoteIds).flat());
  const planIds = [...cited].filter((id) => planFootnotes.has(id));
  // The checkbox and the plan footnotes speak of transactions; a holding is not one.
  const isTransaction = draft.kind === 'transaction';
  const reason = !isTransaction ? null : aff10b5One === true ? 'flag' : planIds.length > 0 ? 'footnote' : null;
  return {
    table: draft.table,
    kind: draft.kind,
    sequence: draft.sequence,
    securityTitle: t('securityTitle'),
    transactionDate: t('transactionDate'),
    deemedExecutionDate: t('deemedExecutionDate'),
    transactionFormType: t('transactionFormType'),
    transactionCode,
    transactionCodeInfo: classifyTransactionCode(transactionCode),
    equitySwapInvolved: booleanField(f.get('equitySwapInvolved')),
    transactionTimeliness: t('transactionTimeliness'),
    shares: n('transactionShares'),
    totalValue: n('transactionTotalValue'),
    pricePerShare: n('transactionPricePerShare'),
    acquiredDisposed: t('transactionAcquiredDisposedCode'),
    sharesOwnedFollowing: n('sharesOwnedFollowingTransaction'),
    valueOwnedFollowing: n('valueOwnedFollowingTransaction'),
    directOrIndirect: t('directOrIndirectOwnership'),
    natureOfOwnership: t('natureOfOwnership'),
    conversionOrExercisePrice: n('conversionOrExercisePrice'),
    exerciseDate: t('exerciseDate'),
    expirationDate: t('expirationDate'),
    underlyingSecurityTitle: t('underlyingSecurityTitle'),
    underlyingSecurityShares: n('underlyingSecurityShares'),
    underlyingSecurityValue: n('underlyingSecurityValue'),
    footnoteIds: draft.footnoteIds,
    is10b5_1: reason !== null,
    is10b5_1Reason: reason,
    is10b5_1FootnoteIds: planIds,
    quote: draft.quote,
  };
}

/**
 * Parses a Form 4 / 4/A (or 3 / 5) ownership document: bare `ownershipDocument` XML (with or
 * without the `<?xml?>` declaration), or the EDGAR complete-submission `.txt` or dissemination-feed
 * file (`<SUBMISSION>` header) holding it inside `<XML>...</XML>`. Pure: bytes in, a typed document out.
 * Throws EdgarParseError when the bytes are not an ownership document or the XML is malformed.
 */
export function parseForm4(bytes: Buffer | string, context: Form4ParseContext = {}): Form4Document {
  const source = context.url ?? SOURCE;
  let text = typeof bytes === 'string' ? bytes : bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const { xml, header } = locateOwnershipXml(text, source);
  const draft = new OwnershipReader(xml, source).read();

  const doc = (k: string) => clean(draft.documentFields.get(k));
  const documentType = doc('documentType');
  if (documentType === null) throw new EdgarParseError(source, 'ownershipDocument without documentType');
  const issuerCik = cikOf(draft.issuerFields.get('issuerCik'));
  if (issuerCik === null) throw new EdgarParseError(source, 'ownershipDocument without issuer/issuerCik');
  if (draft.owners.length === 0) throw new EdgarParseError(source, 'ownershipDocument without reportingOwner');

  const aff10b5One = booleanField(draft.documentFields.get('aff10b5One'));
  const rule10b5_1FootnoteIds = [...new Set(draft.footnotes.filter((f) => mentionsRule10b5_1Plan(f.text)).map((f) => f.id))];
  const planFootnotes = new Set(rule10b5_1FootnoteIds);
  const accession = header?.accession ?? (context.accession ? dashedAccession(context.accession) : null);

  return {
    accession,
    accessionSource: accession === null ? null : header?.accession ? 'sgml_header' : 'context',
    url: context.url ?? null,
    submissionHeader: header,
    schemaVersion: doc('schemaVersion'),
    documentType,
    isAmendment: documentType.toUpperCase().endsWith('/A'),
    periodOfReport: doc('periodOfReport'),
    dateOfOriginalSubmission: doc('dateOfOriginalSubmission'),
    noSecuritiesOwned: booleanField(draft.documentFields.get('noSecuritiesOwned')),
    notSubjectToSection16: booleanField(draft.documentFields.get('notSubjectToSection16')),
    issuer: {
      cik: issuerCik,
      name: clean(draft.issuerFields.get('issuerName')),
      tradingSymbol: clean(draft.issuerFields.get('issuerTradingSymbol')),
    },
    reportingOwners: draft.owners.map(toOwner),
    aff10b5One,
    rows: draft.rows.map((row) => toRow(row, aff10b5One, planFootnotes)),
    footnotes: draft.footnotes,
    rule10b5_1FootnoteIds,
    remarks: doc('remarks'),
    ownerSignatures: draft.signatures,
  };
}
