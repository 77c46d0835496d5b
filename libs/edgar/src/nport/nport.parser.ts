import { StringDecoder } from 'node:string_decoder';
import { Parser } from 'htmlparser2';
import { EdgarParseError } from '../edgar.parse-error';
import { decodeXml, xmlLocalName } from '../xml-text';
import type { NportFund, NportHolding, NportParseSummary } from './nport.types';

export interface NportParserHandlers {
  /** The fund header, once, before the first holding (or at the end when the file has none). */
  onFund?(fund: NportFund): void;
  /** Each holding as soon as its `</invstOrSec>` is read: nothing else keeps it. */
  onHolding(holding: NportHolding): void;
}

/** Bytes fed to the tokenizer per step by `parseNport` / `feedNport`. */
export const NPORT_CHUNK_BYTES = 64 * 1024;

const SOURCE = 'NPORT-P primary_doc.xml';

const GEN_INFO: Record<string, keyof NportFund> = {
  regName: 'registrantName',
  regCik: 'registrantCik',
  regLei: 'registrantLei',
  seriesName: 'seriesName',
  seriesId: 'seriesId',
  seriesLei: 'seriesLei',
  repPdEnd: 'reportPeriodEnd',
  repPdDate: 'reportDate',
};

const HOLDING_TEXT = new Set([
  'name', 'title', 'lei', 'cusip', 'balance', 'units', 'curCd', 'valUSD', 'pctVal', 'payoffProfile',
  'assetCat', 'issuerCat', 'invCountry', 'fairValLevel', 'isRestrictedSec',
]);

/** Trimmed text, null when empty or `N/A` (how N-PORT says "not applicable"). */
function clean(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const v = decodeXml(raw).trim();
  return v === '' || v.toUpperCase() === 'N/A' ? null : v;
}

function num(raw: string | undefined): number | null {
  const v = clean(raw);
  if (v === null) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

function cikOf(raw: string | null): string | null {
  return raw && /^\d{1,10}$/.test(raw) ? raw.padStart(10, '0') : raw;
}

function emptyFund(): NportFund {
  return {
    submissionType: null, registrantCik: null, registrantName: null, registrantLei: null, seriesId: null,
    seriesName: null, seriesLei: null, classIds: [], classTickers: {}, reportPeriodEnd: null, reportDate: null,
    totalAssets: null, netAssets: null,
  };
}

interface OpenHolding {
  depth: number;
  text: Map<string, string>;
  /** Raw (prefixed) tag names, for verbatim quotes. */
  rawTag: Map<string, string>;
  isin: string | null;
  ticker: string | null;
  otherIds: Array<{ value: string; description: string | null }>;
  assetConditional: NportHolding['assetConditional'];
  issuerConditional: NportHolding['issuerConditional'];
  /** Absolute [start, end] character spans of the elements identifier quotes are cut from. */
  spans: Map<'name' | 'lei' | 'cusip' | 'isin', [number, number]>;
}

/**
 * Streaming NPORT-P parser over htmlparser2's tokenizer (xmlMode): write bytes in any chunks,
 * holdings come out one by one through `onHolding`, and only the holding being read is kept.
 * Namespace prefixes are ignored, whitespace before `<?xml` and missing optional nodes are fine;
 * only direct children of `invstOrSec` count (derivatives nest their own names and identifiers).
 */
export class NportStreamParser {
  private readonly parser: Parser;
  private readonly decoder = new StringDecoder('utf8');
  private readonly stack: string[] = [];
  private readonly fund = emptyFund();
  private filerCik: string | null = null;
  private fundEmitted = false;
  private sawRoot = false;
  private holding: OpenHolding | null = null;
  /** Text of the element being read, gathered only when that element is one we keep. */
  private text = '';
  private capture = false;
  private count = 0;
  private ended = false;
  /** The input since the open holding began (or since the last token): identifier quotes are cut from it. */
  private raw = '';
  /** Absolute character index of raw[0]. */
  private rawBase = 0;

  constructor(private readonly handlers: NportParserHandlers) {
    this.parser = new Parser(
      {
        onopentag: (name, attribs) => this.open(name, attribs),
        ontext: (t) => {
          if (this.capture) this.text += t;
        },
        onclosetag: (name) => this.close(name),
      },
      { xmlMode: true, decodeEntities: false },
    );
  }

  /** Feeds the next bytes (UTF-8; a character split across chunks is handled). */
  write(chunk: Uint8Array | string): void {
    this.feed(typeof chunk === 'string' ? chunk : this.decoder.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
  }

  private feed(text: string): void {
    this.raw += text;
    this.parser.write(text);
    // Outside a holding nothing before the last token is quoted again: only a holding's text is kept.
    if (!this.holding) {
      const cut = Math.min(Math.max(this.parser.endIndex + 1 - this.rawBase, 0), this.raw.length);
      this.raw = this.raw.slice(cut);
      this.rawBase += cut;
    }
  }

  /** The input from the start of `from` (else of `to`) through the end of `to`, as written; null when `to` was not read. */
  private slice(h: OpenHolding, from: 'name', to: 'lei' | 'cusip' | 'isin'): string | null {
    const end = h.spans.get(to);
    if (!end) return null;
    const start = h.spans.get(from)?.[0] ?? end[0];
    if (start > end[0] || start < this.rawBase) return null;
    return this.raw.slice(start - this.rawBase, end[1] + 1 - this.rawBase);
  }

  /** Ends the input; throws EdgarParseError when the bytes were not an N-PORT document. */
  end(): NportParseSummary {
    if (!this.ended) {
      this.ended = true;
      this.feed(this.decoder.end());
      this.parser.end();
    }
    if (!this.sawRoot) throw new EdgarParseError(SOURCE, 'no edgarSubmission root element');
    this.emitFund();
    return { fund: this.fund, holdingCount: this.count };
  }

  private open(rawName: string, attribs: Record<string, string>): void {
    const name = xmlLocalName(rawName);
    const depth = this.stack.length;
    const parent = this.stack[depth - 1];
    this.stack.push(name);
    this.text = '';
    this.capture = this.wanted(name, parent, depth);
    if (depth === 0) {
      if (name !== 'edgarSubmission') throw new EdgarParseError(SOURCE, `root element is <${rawName}>, not edgarSubmission`);
      this.sawRoot = true;
      return;
    }
    const h = this.holding;
    if (h) {
      if (depth === h.depth + 1) {
        h.rawTag.set(name, rawName);
        if (name === 'name' || name === 'lei' || name === 'cusip') h.spans.set(name, [this.parser.startIndex, this.parser.startIndex]);
        if (name === 'assetConditional') h.assetConditional = { assetCat: clean(attribs.assetCat), description: clean(attribs.desc) };
        else if (name === 'issuerConditional') h.issuerConditional = { issuerCat: clean(attribs.issuerCat), description: clean(attribs.desc) };
      } else if (depth === h.depth + 2 && parent === 'identifiers') {
        const value = clean(attribs.value);
        if (name === 'isin' && h.isin === null && value !== null) {
          h.isin = value;
          h.spans.set('isin', [this.parser.startIndex, this.parser.startIndex]);
        }
        else if (name === 'ticker') h.ticker ??= value;
        else if (name === 'other' && value !== null) h.otherIds.push({ value, description: clean(attribs.otherDesc) });
      }
      return;
    }
    if (name === 'invstOrSec' && parent === 'invstOrSecs') {
      this.emitFund();
      this.holding = { depth, text: new Map(), rawTag: new Map(), isin: null, ticker: null, otherIds: [], assetConditional: null, issuerConditional: null, spans: new Map() };
    }
  }

  /** Whether the text of an element about to be read is kept (everything else is skipped cheaply). */
  private wanted(name: string, parent: string | undefined, depth: number): boolean {
    const h = this.holding;
    if (h) return depth === h.depth + 1 && HOLDING_TEXT.has(name);
    switch (parent ?? '') {
      case 'genInfo':
        return name in GEN_INFO;
      case 'fundInfo':
        return name === 'netAssets' || name === 'totAssets';
      case 'seriesClassInfo':
        return name === 'classId' || name === 'seriesId';
      case 'issuerCredentials':
        return name === 'cik';
      case 'headerData':
        return name === 'submissionType';
      default:
        return false;
    }
  }

  private close(rawName: string): void {
    const name = xmlLocalName(rawName);
    this.stack.pop();
    const depth = this.stack.length;
    const parent = this.stack[depth - 1];
    const text = this.capture ? this.text : '';
    this.text = '';
    this.capture = false;
    const h = this.holding;
    if (h) {
      if (depth === h.depth) {
        this.holding = null;
        this.handlers.onHolding(this.toHolding(h));
        this.count += 1;
      } else if (depth === h.depth + 1 && HOLDING_TEXT.has(name)) {
        h.text.set(name, (h.text.get(name) ?? '') + text);
        const span = h.spans.get(name as 'name');
        if (span && span[0] === span[1]) span[1] = this.parser.endIndex;
      } else if (depth === h.depth + 2 && name === 'isin' && parent === 'identifiers') {
        const span = h.spans.get('isin');
        if (span && span[0] === span[1]) span[1] = this.parser.endIndex;
      }
      return;
    }
    if (parent === 'genInfo') {
      const field = GEN_INFO[name];
      if (field) (this.fund as unknown as Record<string, unknown>)[field] = clean(text);
    } else if (parent === 'fundInfo') {
      if (name === 'netAssets') this.fund.netAssets = num(text);
      else if (name === 'totAssets') this.fund.totalAssets = num(text);
    } else if (parent === 'seriesClassInfo') {
      const v = clean(text);
      if (v && name === 'classId') this.fund.classIds.push(v);
      if (v && name === 'seriesId') this.fund.seriesId ??= v;
    } else if (parent === 'issuerCredentials' && name === 'cik') {
      this.filerCik ??= cikOf(clean(text));
    } else if (parent === 'headerData' && name === 'submissionType') {
      this.fund.submissionType = clean(text);
    }
  }

  private emitFund(): void {
    if (this.fundEmitted) return;
    this.fundEmitted = true;
    this.fund.registrantCik = cikOf(this.fund.registrantCik) ?? this.filerCik;
    this.handlers.onFund?.(this.fund);
  }

  private toHolding(h: OpenHolding): NportHolding {
    const t = (k: string) => clean(h.text.get(k));
    const restricted = t('isRestrictedSec');
    const quoteOf = (k: string): string | null => {
      const raw = h.text.get(k);
      const tag = h.rawTag.get(k);
      return raw !== undefined && tag !== undefined && raw.trim() !== '' ? `<${tag}>${raw}</${tag}>` : null;
    };
    return {
      index: this.count,
      name: t('name'),
      title: t('title'),
      lei: t('lei'),
      cusip: t('cusip'),
      isin: h.isin,
      ticker: h.ticker,
      otherIds: h.otherIds,
      balance: num(h.text.get('balance')),
      units: t('units'),
      curCd: t('curCd'),
      valUsd: num(h.text.get('valUSD')),
      pctVal: num(h.text.get('pctVal')),
      payoffProfile: t('payoffProfile'),
      assetCat: t('assetCat'),
      assetConditional: h.assetConditional,
      issuerCat: t('issuerCat'),
      issuerConditional: h.issuerConditional,
      invCountry: t('invCountry'),
      fairValLevel: t('fairValLevel'),
      isRestricted: restricted === null ? null : restricted.toUpperCase() === 'Y',
      quote: quoteOf('name') ?? quoteOf('title') ?? quoteOf('cusip'),
      leiQuote: this.slice(h, 'name', 'lei'),
      cusipQuote: this.slice(h, 'name', 'cusip'),
      isinQuote: h.isin === null ? null : this.slice(h, 'name', 'isin'),
    };
  }
}

/**
 * Parses a whole N-PORT document held in one buffer, feeding it to the tokenizer in slices so the
 * document is never also held as one string. Holdings go to `onHolding` as they are read.
 */
export function feedNport(bytes: Uint8Array, handlers: NportParserHandlers, chunkBytes = NPORT_CHUNK_BYTES): NportParseSummary {
  const parser = new NportStreamParser(handlers);
  for (let at = 0; at < bytes.byteLength; at += chunkBytes) parser.write(bytes.subarray(at, Math.min(at + chunkBytes, bytes.byteLength)));
  return parser.end();
}

/** Convenience for small files and tests: the fund and every holding in an array. */
export function parseNport(bytes: Uint8Array): { fund: NportFund; holdings: NportHolding[] } {
  const holdings: NportHolding[] = [];
  const { fund } = feedNport(bytes, { onHolding: (h) => holdings.push(h) });
  return { fund, holdings };
}

/** `/Archives/edgar/data/<cik>/<accession without dashes>/primary_doc.xml`. */
export function nportPrimaryDocPath(cik: string, accession: string): string {
  return `/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/primary_doc.xml`;
}
