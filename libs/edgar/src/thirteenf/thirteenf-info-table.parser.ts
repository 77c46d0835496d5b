import { EdgarParseError } from '../edgar.parse-error';
import { managerSequences } from './thirteenf-other-managers';
import { cleanText, numberText, walkXml } from './thirteenf-xml.reader';
import type { ThirteenFHolding } from './thirteenf.types';

const SOURCE = '13F information table';

interface RowDraft {
  start: number;
  fields: Map<string, string>;
  /** otherManager may repeat within a row. */
  otherManagers: string[];
}

function required(n: number | null, what: string, index: number): number {
  if (n === null || !Number.isFinite(n)) throw new EdgarParseError(SOURCE, `infoTable ${index}: ${what} is missing or not a number`);
  return n;
}

function toHolding(row: RowDraft, index: number, quote: string): ThirteenFHolding {
  const t = (k: string) => cleanText(row.fields.get(k));
  const n = (k: string) => numberText(row.fields.get(k));
  const cusip = t('cusip')?.toUpperCase() ?? null;
  if (cusip === null) throw new EdgarParseError(SOURCE, `infoTable ${index}: no cusip`);
  const shareType = t('sshPrnamtType')?.toUpperCase();
  if (shareType !== 'SH' && shareType !== 'PRN') throw new EdgarParseError(SOURCE, `infoTable ${index}: sshPrnamtType is ${shareType ?? 'missing'}`);
  const putCall = t('putCall')?.toLowerCase() ?? null;
  return {
    index,
    issuer: t('nameOfIssuer') ?? '',
    classTitle: t('titleOfClass'),
    cusip,
    figi: t('figi'),
    valueFiled: required(n('value'), 'value', index),
    shares: required(n('sshPrnamt'), 'sshPrnamt', index),
    shareType,
    putCall: putCall === 'put' || putCall === 'call' ? putCall : null,
    discretion: t('investmentDiscretion')?.toUpperCase() ?? null,
    otherManagers: managerSequences(row.otherManagers.map(cleanText)),
    votingSole: n('Sole') ?? 0,
    votingShared: n('Shared') ?? 0,
    votingNone: n('None') ?? 0,
    quote,
  };
}

/**
 * Parses a 13F information table (informationTable, `ns1:`-prefixed or not): every infoTable row
 * in order, values as filed (the unit is decided per filing by decideValueUnit), the row's quote
 * cut from the text as written. Throws EdgarParseError when the root is not informationTable or
 * a row lacks its CUSIP, value, amount or SH/PRN type.
 */
export function parseThirteenFInfoTable(xml: string): ThirteenFHolding[] {
  const holdings: ThirteenFHolding[] = [];
  let row: RowDraft | null = null;
  const root = walkXml(xml, SOURCE, {
    open: (path, start) => {
      if (path.length === 2 && path[1] === 'infoTable') row = { start, fields: new Map(), otherManagers: [] };
    },
    leaf: (path, raw) => {
      if (!row || path.length < 3) return;
      const name = path[path.length - 1]!;
      if (name === 'otherManager') row.otherManagers.push(raw);
      else row.fields.set(name, raw);
    },
    close: (path, end) => {
      if (row && path.length === 2) {
        holdings.push(toHolding(row, holdings.length, xml.slice(row.start, end + 1)));
        row = null;
      }
    },
  });
  if (root !== 'informationTable') throw new EdgarParseError(SOURCE, `root element is <${root}>, not informationTable`);
  return holdings;
}
