import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from '@app/testing';
import { EdgarParseError } from '../edgar.parse-error';
import { parseThirteenFPrimaryDoc } from './thirteenf-primary-doc.parser';

const read = (file: string): string => readFileSync(join(defaultFixturesDir(), '13f', file), 'utf8');
const BARD = read('BARD-0001850858-21-000004-primary_doc.xml');

/** Every element of the document written with the `ns1:` prefix (the default namespace bound to it instead). */
const allPrefixed = (xml: string) => xml.replace(/<(\/?)(?:com:)?([A-Za-z]\w*)/g, '<$1ns1:$2').replace('xmlns="', 'xmlns:ns1="');
/** Every prefix dropped. */
const unprefixed = (xml: string) => xml.replace(/<(\/?)com:/g, '<$1');

describe('parseThirteenFPrimaryDoc', () => {
  it('BARD: every field of a holdings report (com: prefixes, root attributes over two lines)', () => {
    expect(parseThirteenFPrimaryDoc(BARD)).toEqual({
      form: '13F-HR',
      managerCik: '0001850858',
      managerName: 'Bard Financial Services, Inc.',
      fileNumber: '028-21128',
      crdNumber: null,
      secFileNumber: null,
      period: '2021-09-30',
      reportType: 'holdings',
      isAmendment: false,
      amendmentNumber: null,
      amendmentType: null,
      signedDate: '2021-10-15',
      otherManagers: [],
      includedManagers: [],
      tableEntryTotal: 278,
      tableValueTotal: 1129298,
    });
  });

  it('the namespace prefix does not matter: ns1: on every element, or none', () => {
    const expected = parseThirteenFPrimaryDoc(BARD);
    expect(allPrefixed(BARD)).toContain('<ns1:edgarSubmission');
    expect(parseThirteenFPrimaryDoc(allPrefixed(BARD))).toEqual(expected);
    expect(unprefixed(BARD)).not.toContain('com:');
    expect(parseThirteenFPrimaryDoc(unprefixed(BARD))).toEqual(expected);
  });

  it('SEC 13F-HR/A sample: a restatement, amendment 45', () => {
    expect(parseThirteenFPrimaryDoc(read('SEC-Sample_13F-HRA.xml'))).toMatchObject({ form: '13F-HR/A', isAmendment: true, amendmentNumber: 45, amendmentType: 'restatement', tableEntryTotal: 1222 });
  });

  it('amendment type NEW HOLDINGS and combination reports (the HR/A sample with its RESTATEMENT and report type rewritten)', () => {
    const xml = read('SEC-Sample_13F-HRA.xml').replace('RESTATEMENT', 'NEW HOLDINGS').replace('13F HOLDINGS REPORT', '13F COMBINATION REPORT');
    expect(parseThirteenFPrimaryDoc(xml)).toMatchObject({ amendmentType: 'new_holdings', reportType: 'combination' });
  });

  it('included managers of the summary page with their sequence numbers (the NT sample\'s cover-page manager moved there as number 1)', () => {
    const nt = read('SEC-Sample_13F-NT.xml');
    const manager = /<otherManager>[\s\S]*?<\/otherManager>/.exec(nt)![0];
    const included = `<summaryPage><otherManagers2Info><otherManager2><sequenceNumber>1</sequenceNumber>${manager}</otherManager2></otherManagers2Info></summaryPage>`;
    const xml = nt.replace(/<otherManagersInfo>[\s\S]*<\/otherManagersInfo>/, '').replace('</signatureBlock>', `</signatureBlock>${included}`);
    expect(parseThirteenFPrimaryDoc(xml)).toMatchObject({
      otherManagers: [],
      includedManagers: [{ sequence: 1, cik: '0123456789', name: 'BIG FUND TRUST inc', fileNumber: '028-7844' }],
    });
  });

  it('an /A submission without isAmendment is an amendment (BARD with its type set to 13F-HR/A)', () => {
    expect(parseThirteenFPrimaryDoc(BARD.replace('<submissionType>13F-HR<', '<submissionType>13F-HR/A<')).isAmendment).toBe(true);
  });

  it('throws EdgarParseError for another document', () => {
    expect(() => parseThirteenFPrimaryDoc(read('SEC-information_table.xml'))).toThrow(EdgarParseError);
    expect(() => parseThirteenFPrimaryDoc('no xml')).toThrow(EdgarParseError);
  });
});
