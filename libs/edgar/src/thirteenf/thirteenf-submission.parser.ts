import { EdgarParseError } from '../edgar.parse-error';
import { parseCompleteSubmission, unwrappedBody } from '../eightk/submission.parser';
import { parseThirteenFInfoTable } from './thirteenf-info-table.parser';
import { readThirteenFPrimaryDoc } from './thirteenf-primary-doc.parser';
import { decideValueUnit } from './thirteenf-value-unit';
import { xmlRootName } from './thirteenf-xml.reader';
import type { ParsedThirteenF, ThirteenFPrimaryDoc } from './thirteenf.types';

const SOURCE = '13F submission';

interface Located {
  accession: string | null;
  headerFiledDate: string | null;
  acceptedAt: string | null;
  primaryXml: string;
  primaryFilename: string | null;
  infoTableXml: string | null;
  infoTableFilename: string | null;
}

/** The complete submission (.txt) or dissemination file (.nc): documents told apart by their root element, not their names. */
function locateInSubmission(text: string): Located {
  const submission = parseCompleteSubmission(text);
  let primary: { xml: string; filename: string | null } | null = null;
  let table: { xml: string; filename: string | null } | null = null;
  for (const doc of submission.documents) {
    if (doc.binary) continue;
    const xml = unwrappedBody(doc.body);
    const root = xmlRootName(xml);
    if (root === 'edgarSubmission') primary ??= { xml, filename: doc.filename };
    else if (root === 'informationTable') table ??= { xml, filename: doc.filename };
  }
  if (!primary) throw new EdgarParseError(SOURCE, 'no edgarSubmission primary document among the documents');
  return {
    accession: submission.accession,
    headerFiledDate: submission.filed_date,
    acceptedAt: submission.accepted_at,
    primaryXml: primary.xml,
    primaryFilename: primary.filename,
    infoTableXml: table?.xml ?? null,
    infoTableFilename: table?.filename ?? null,
  };
}

/** The date the unit rule needs: the one passed in, the header's, else the signature's (a filing is signed on or just before its filing day). */
function unitDate(filedDate: string | null, primary: ThirteenFPrimaryDoc): string {
  const date = filedDate ?? primary.signedDate;
  if (date === null) throw new EdgarParseError(SOURCE, 'no filing date: none passed in, none in a header, no signatureDate');
  return date;
}

/**
 * Parses a whole 13F filing: the complete submission `.txt`, the dissemination `.nc` (both through
 * parseCompleteSubmission), or a submission XML as filers send it (SEC's samples: edgarSubmission
 * with the information table base64-encoded in `<documents><document><contents>`). Notices have no
 * information table and give no holdings. `filedDate` (from the filing index) wins over the header's.
 * Throws EdgarParseError when the text holds no 13F primary document, or when a report declares
 * entries on its summary page and carries no information table (never an empty holdings list by mistake).
 */
export function parseThirteenFSubmission(text: string, options: { filedDate?: string } = {}): ParsedThirteenF {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const root = xmlRootName(body);
  // Anything but a submission XML goes to parseCompleteSubmission, which throws when it finds no documents.
  const located: Located =
    root === 'edgarSubmission'
      ? { accession: null, headerFiledDate: null, acceptedAt: null, primaryXml: body, primaryFilename: null, infoTableXml: null, infoTableFilename: null }
      : locateInSubmission(body);
  const { primary, attached } = readThirteenFPrimaryDoc(located.primaryXml);
  let infoTableXml = located.infoTableXml;
  let infoTableFilename = located.infoTableFilename;
  if (infoTableXml === null) {
    const attachedTables = attached.map((d) => Buffer.from(d.contentsBase64, 'base64').toString('utf8'));
    const index = attachedTables.findIndex((xml) => xmlRootName(xml) === 'informationTable');
    if (index >= 0) {
      infoTableXml = attachedTables[index]!;
      infoTableFilename = attached[index]!.name;
    }
  }
  // A notice has no table; a report that declares entries and has none must not pass as empty.
  if (infoTableXml === null && (primary.tableEntryTotal ?? 0) > 0) {
    throw new EdgarParseError(SOURCE, `the summary page declares ${primary.tableEntryTotal} entries but no information table was found`);
  }
  const holdings = infoTableXml === null ? [] : parseThirteenFInfoTable(infoTableXml);
  const filedDate = options.filedDate ?? located.headerFiledDate;
  return {
    accession: located.accession,
    filedDate,
    acceptedAt: located.acceptedAt,
    primary,
    holdings,
    valueUnit: decideValueUnit(unitDate(filedDate, primary), primary, holdings),
    primaryFilename: located.primaryFilename,
    infoTableFilename,
  };
}
