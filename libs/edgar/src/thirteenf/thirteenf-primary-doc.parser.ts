import { EdgarParseError } from '../edgar.parse-error';
import { thirteenFDate } from './thirteenf-dates';
import { cleanText, numberText, walkXml } from './thirteenf-xml.reader';
import type { ThirteenFAmendmentType, ThirteenFManagerRef, ThirteenFPrimaryDoc, ThirteenFReportType } from './thirteenf.types';

const SOURCE = '13F primary_doc.xml';

const REPORT_TYPES: Readonly<Record<string, ThirteenFReportType>> = {
  '13F HOLDINGS REPORT': 'holdings',
  '13F NOTICE': 'notice',
  '13F COMBINATION REPORT': 'combination',
};

const AMENDMENT_TYPES: Readonly<Record<string, ThirteenFAmendmentType>> = {
  RESTATEMENT: 'restatement',
  'NEW HOLDINGS': 'new_holdings',
};

/** A document a filer attaches inside the submission XML (`<documents><document>`), as SEC's samples do. */
export interface ThirteenFAttachedDocument {
  name: string | null;
  type: string | null;
  /** `<contents>` as written: base64 of the document's bytes. */
  contentsBase64: string;
}

interface ManagerDraft {
  sequence?: string;
  fields: Map<string, string>;
}

function cikOf(raw: string | undefined): string | null {
  const v = cleanText(raw);
  return v !== null && /^\d{1,10}$/.test(v) ? v.padStart(10, '0') : v;
}

function toRef(m: ManagerDraft): ThirteenFManagerRef {
  const sequence = numberText(m.sequence);
  return {
    sequence: sequence !== null && Number.isInteger(sequence) ? sequence : null,
    cik: cikOf(m.fields.get('cik')),
    name: cleanText(m.fields.get('name')),
    fileNumber: cleanText(m.fields.get('form13FFileNumber')),
  };
}

/** The primary document and any documents attached inside it (only SEC's submission samples have those). */
export function readThirteenFPrimaryDoc(xml: string): { primary: ThirteenFPrimaryDoc; attached: ThirteenFAttachedDocument[] } {
  // Leaves outside the repeated groups, keyed by their path below the root.
  const fields = new Map<string, string>();
  const otherManagers: ManagerDraft[] = [];
  const includedManagers: ManagerDraft[] = [];
  const attached: Array<{ fields: Map<string, string> }> = [];
  const root = walkXml(xml, SOURCE, {
    open: (path) => {
      const [, section, page, group, item] = path;
      if (section !== 'formData' && section !== 'documents') return;
      if (path.length === 5 && page === 'coverPage' && group === 'otherManagersInfo' && item === 'otherManager') otherManagers.push({ fields: new Map() });
      else if (path.length === 5 && page === 'summaryPage' && group === 'otherManagers2Info' && item === 'otherManager2') includedManagers.push({ fields: new Map() });
      else if (path.length === 3 && section === 'documents' && page === 'document') attached.push({ fields: new Map() });
    },
    leaf: (path, raw) => {
      const [, section, page, group] = path;
      const name = path[path.length - 1]!;
      if (section === 'formData' && page === 'coverPage' && group === 'otherManagersInfo') otherManagers.at(-1)?.fields.set(name, raw);
      else if (section === 'formData' && page === 'summaryPage' && group === 'otherManagers2Info') {
        const manager = includedManagers.at(-1);
        if (manager && name === 'sequenceNumber') manager.sequence = raw;
        else manager?.fields.set(name, raw);
      } else if (section === 'documents') attached.at(-1)?.fields.set(name, raw);
      else fields.set(path.slice(1).join('/'), raw);
    },
  });
  if (root !== 'edgarSubmission') throw new EdgarParseError(SOURCE, `root element is <${root}>, not edgarSubmission`);

  const t = (p: string) => cleanText(fields.get(p));
  const n = (p: string) => {
    const v = numberText(fields.get(p));
    return v !== null && Number.isFinite(v) ? v : null;
  };
  const cover = (k: string) => t(`formData/coverPage/${k}`);
  const reportType = cover('reportType')?.toUpperCase() ?? null;
  const amendmentType = cover('amendmentInfo/amendmentType')?.toUpperCase() ?? null;
  const amendmentNumber = n('formData/coverPage/amendmentNo');
  const form = t('headerData/submissionType');
  const isAmendmentText = cover('isAmendment')?.toLowerCase() ?? null;
  const primary: ThirteenFPrimaryDoc = {
    form,
    managerCik: cikOf(fields.get('headerData/filerInfo/filer/credentials/cik')),
    managerName: cover('filingManager/name'),
    fileNumber: cover('form13FFileNumber'),
    crdNumber: cover('crdNumber'),
    secFileNumber: cover('secFileNumber'),
    period: thirteenFDate(t('headerData/filerInfo/periodOfReport') ?? cover('reportCalendarOrQuarter')),
    reportType: reportType === null ? null : (REPORT_TYPES[reportType] ?? null),
    // The element is optional; an /A submission type says the same thing when it is missing.
    isAmendment: isAmendmentText === null ? /\/A$/i.test(form ?? '') : isAmendmentText === 'true' || isAmendmentText === '1',
    amendmentNumber: amendmentNumber !== null && Number.isInteger(amendmentNumber) ? amendmentNumber : null,
    amendmentType: amendmentType === null ? null : (AMENDMENT_TYPES[amendmentType] ?? null),
    signedDate: thirteenFDate(t('formData/signatureBlock/signatureDate')),
    otherManagers: otherManagers.map(toRef),
    includedManagers: includedManagers.map(toRef),
    tableEntryTotal: n('formData/summaryPage/tableEntryTotal'),
    tableValueTotal: n('formData/summaryPage/tableValueTotal'),
  };
  return {
    primary,
    attached: attached.map(({ fields: f }) => ({
      name: cleanText(f.get('conformedName')),
      type: cleanText(f.get('conformedDocumentType')),
      contentsBase64: f.get('contents') ?? '',
    })),
  };
}

/**
 * Parses a 13F edgarSubmission primary document (13F-HR, 13F-HR/A, 13F-NT, 13F-NT/A): cover page,
 * summary page and signature. Namespace prefixes (`com:`, `ns1:`, none) do not matter.
 * Throws EdgarParseError when the root element is not edgarSubmission.
 */
export function parseThirteenFPrimaryDoc(xml: string): ThirteenFPrimaryDoc {
  return readThirteenFPrimaryDoc(xml).primary;
}
