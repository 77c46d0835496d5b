// 13F follows EDGAR on real infrastructure: 13F filing records on edgar.filings.v1 (as the live
// poller publishes them) -> `13f --follow` (startWorker; complete submissions from the fixture EDGAR
// server) -> Kafka -> projector -> Postgres institutional positions. A 13F-HR and then its
// 13F-HR/A restatement leave one quarter, not two; the manager's next quarter gets the change column.
//
// No real 13F-HR/A or second quarter of one manager is among the fixtures: both are derived from
// ACTIAM's real 13F-HR for 2020Q4 (0001619124-21-000002) by the transformations stated below, and
// served by this test at their own Archives paths.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@app/config';
import { TOPICS, type FilingRecordV1 } from '@app/contracts';
import { readTopic } from '@app/messaging';
import { defaultFixturesDir, uniqueGroupId } from '@app/testing';
import { filingRecord } from '../apps/ingest-sec/src/document-worker.int-helpers';
import { thirteenfConfigSchema } from '../apps/ingest-sec/src/thirteenf/thirteenf.config';
import { startThirteenFFollow } from '../apps/ingest-sec/src/thirteenf/thirteenf.module';
import { startFollowPipeline, type FollowPipeline } from './support/follow-pipeline';

jest.setTimeout(180_000);

const ACTIAM = { cik: '0001619124', company_name: 'ACTIAM N.V.' };
const ORIGINAL = '0001619124-21-000002';
/** The restatement of 2020Q4 (derived): amendment fields set, MSFT 1,009,277 -> 1,050,000 shares. */
const RESTATEMENT = '0001619124-21-000003';
/** 2021Q1 (derived): period moved a quarter; MSFT 900,000 shares, Alphabet C 40,000, Amazon sold. */
const NEXT_QUARTER = '0001619124-21-000004';
/** Not served: the follower dead-letters its filing record. */
const MISSING = '0001619124-21-000009';
const MSFT = '594918104';
const ALPHABET_C = '02079K107';
const AMAZON = '023135106';
const APPLE = '037833100';

const archivesPath = (accession: string) => `/Archives/edgar/data/1619124/${accession.replace(/-/g, '')}/${accession}.txt`;
const thirteenF = (accession: string, form: '13F-HR' | '13F-HR/A', filed_date: string, report_period: string): FilingRecordV1 =>
  filingRecord({ ...ACTIAM, accession, form, filed_date, report_period, primary_document_url: `https://www.sec.gov${archivesPath(accession)}`, source: 'daily_index' });

const original = readFileSync(join(defaultFixturesDir(), '13f', 'ACTIAM-0001619124-21-000002.txt'), 'utf8');

/** Replaces `from` by `to` exactly `times` times in `text` (a transformation that silently matched nothing would test nothing). */
function replace(text: string, from: string | RegExp, to: string, times = 1): string {
  const pattern = typeof from === 'string' ? new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g') : from;
  const found = text.match(pattern)?.length ?? 0;
  if (found !== times) throw new Error(`expected ${times} of ${String(from)}, found ${found}`);
  return text.replace(pattern, to);
}

/** One infoTable row's shares (sshPrnamt and sole voting authority), found by its CUSIP. */
function setShares(text: string, cusip: string, from: number, to: number): string {
  const row = new RegExp(`<ns1:cusip>${cusip}</ns1:cusip>[\\s\\S]*?</ns1:infoTable>`);
  const m = row.exec(text);
  if (!m) throw new Error(`no row ${cusip}`);
  const changed = replace(replace(m[0], `<ns1:sshPrnamt>${from}</ns1:sshPrnamt>`, `<ns1:sshPrnamt>${to}</ns1:sshPrnamt>`), `<ns1:Sole>${from}</ns1:Sole>`, `<ns1:Sole>${to}</ns1:Sole>`);
  return text.replace(m[0], changed);
}

/** ACTIAM's 13F-HR as its 13F-HR/A, amendment No. 1 of type RESTATEMENT, filed 2021-03-01; MSFT's shares changed. */
function restatement(): string {
  let t = replace(original, ORIGINAL, RESTATEMENT, 3);
  t = replace(t, 'CONFORMED SUBMISSION TYPE:\t13F-HR\n', 'CONFORMED SUBMISSION TYPE:\t13F-HR/A\n');
  t = replace(t, 'FORM TYPE:\t\t13F-HR\n', 'FORM TYPE:\t\t13F-HR/A\n');
  t = replace(t, '<TYPE>13F-HR\n', '<TYPE>13F-HR/A\n');
  t = replace(t, '<submissionType>13F-HR</submissionType>', '<submissionType>13F-HR/A</submissionType>');
  // Every header date (filed, accepted, changed, effective) moves to the amendment's day.
  t = replace(t, /20210212/g, '20210301', 6);
  // The cover page's amendment block, where the 13F schema puts it (after reportCalendarOrQuarter).
  t = replace(
    t,
    '<reportCalendarOrQuarter>12-31-2020</reportCalendarOrQuarter>',
    '<reportCalendarOrQuarter>12-31-2020</reportCalendarOrQuarter>\n      <isAmendment>true</isAmendment>\n      <amendmentNo>1</amendmentNo>\n      <amendmentInfo>\n        <amendmentType>RESTATEMENT</amendmentType>\n      </amendmentInfo>',
  );
  return setShares(t, MSFT, 1009277, 1050000);
}

/** ACTIAM's 13F-HR moved to 2021Q1 (filed 2021-05-14): MSFT 900,000, Alphabet C 40,000, the Amazon row removed (totals adjusted). */
function nextQuarter(): string {
  let t = replace(original, ORIGINAL, NEXT_QUARTER, 3);
  t = replace(t, 'CONFORMED PERIOD OF REPORT:\t20201231', 'CONFORMED PERIOD OF REPORT:\t20210331');
  t = replace(t, /20210212/g, '20210514', 6);
  t = replace(t, '12-31-2020', '03-31-2021', 2);
  t = replace(t, '<signatureDate>02-12-2021</signatureDate>', '<signatureDate>05-14-2021</signatureDate>');
  t = setShares(setShares(t, MSFT, 1009277, 900000), ALPHABET_C, 38127, 40000);
  t = replace(t, /\t<ns1:infoTable>\s*<ns1:nameOfIssuer>AMAZON\.COM INC<\/ns1:nameOfIssuer>[\s\S]*?<\/ns1:infoTable>\n/, '');
  t = replace(t, '<tableEntryTotal>5</tableEntryTotal>', '<tableEntryTotal>4</tableEntryTotal>');
  return replace(t, '<tableValueTotal>732158</tableValueTotal>', `<tableValueTotal>${732158 - 152059}</tableValueTotal>`);
}

const followerGroup = uniqueGroupId('thirteenf-follow');
let pipeline: FollowPipeline;
let dir: string;

const followOnce = () => pipeline.followOnce((env, options) => startThirteenFFollow(loadConfig(thirteenfConfigSchema, env), options), { THIRTEENF_GROUP_ID: followerGroup });
const projected = () => pipeline.projected([TOPICS.thirteenFHoldings]);

interface Position {
  period: string;
  cusip: string;
  shares: string;
  accession: string;
  prev_shares: string | null;
  share_delta: string | null;
  change: string | null;
}
const positions = () =>
  pipeline.ds.query<Position[]>(
    `SELECT to_char(period, 'YYYY-MM-DD') AS period, cusip, shares::text, accession, prev_shares::text, share_delta::text, change
       FROM institutional_positions WHERE manager_cik = $1 ORDER BY period, cusip`,
    [ACTIAM.cik],
  );
const quarters = () =>
  pipeline.ds.query<Array<{ period: string; accessions: string[] }>>(
    `SELECT to_char(period, 'YYYY-MM-DD') AS period, accessions FROM institutional_manager_quarters WHERE manager_cik = $1 ORDER BY period`,
    [ACTIAM.cik],
  );
const of = (rows: Position[], period: string, cusip: string) => rows.find((r) => r.period === period && r.cusip === cusip);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'thirteenf-follow-'));
  writeFileSync(join(dir, 'restatement.txt'), restatement());
  writeFileSync(join(dir, 'next-quarter.txt'), nextQuarter());
  pipeline = await startFollowPipeline('thirteenf-follow', {
    routes: [
      { path: archivesPath(RESTATEMENT), file: join(dir, 'restatement.txt') },
      { path: archivesPath(NEXT_QUARTER), file: join(dir, 'next-quarter.txt') },
    ],
  });
}, 600_000);

afterAll(async () => {
  await pipeline?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('13f --follow -> projector -> institutional positions', () => {
  it("reads a manager's 13F-HR from the filings topic into one quarter of positions; a missing filing is dead-lettered", async () => {
    await pipeline.publish([
      thirteenF(ORIGINAL, '13F-HR', '2021-02-12', '2020-12-31'),
      // Not a 13F: nothing is fetched for it.
      filingRecord({ cik: '0000789019', company_name: 'MICROSOFT CORP', accession: '0000950170-25-100235', form: '10-K', primary_document_url: 'https://www.sec.gov/x' }),
      thirteenF(MISSING, '13F-HR', '2021-02-12', '2020-12-31'),
    ]);
    expect(await followOnce()).toMatchObject({ processed: 2, dead_lettered: 1 });
    const dead = await readTopic(pipeline.settings, pipeline.filings.dlq, { count: 1, timeoutMs: 30_000 });
    expect(dead.map((m) => m.key)).toEqual([MISSING]);
    expect(dead[0]!.headers['dlq-reason']).toMatch(`permanent: 13F ${MISSING}: complete submission not found`);
    // One request per 13F (the missing one again when its batch is split): the complete submission only.
    expect([...new Set(pipeline.server.requests.map((r) => r.path).filter((p) => p.startsWith('/Archives/')))].sort()).toEqual([archivesPath(ORIGINAL), archivesPath(MISSING)]);

    await projected();
    const rows = await positions();
    expect(rows.map((r) => [r.period, r.cusip, r.accession])).toEqual(
      [APPLE, AMAZON, ALPHABET_C, '02079K305', MSFT].sort().map((cusip) => ['2020-12-31', cusip, ORIGINAL]),
    );
    expect(of(rows, '2020-12-31', MSFT)!.shares).toBe('1009277');
    expect(await quarters()).toEqual([{ period: '2020-12-31', accessions: [ORIGINAL] }]);
  });

  it('a 13F-HR/A restatement replaces the quarter: one quarter, not two, with the restated shares', async () => {
    await pipeline.publish([thirteenF(RESTATEMENT, '13F-HR/A', '2021-03-01', '2020-12-31')]);
    expect(await followOnce()).toMatchObject({ processed: 1, dead_lettered: 0 });
    await projected();
    const rows = await positions();
    // Five positions of one period, every one from the restatement (the original's are gone, not summed in).
    expect(rows.map((r) => [r.period, r.accession])).toEqual(Array.from({ length: 5 }, () => ['2020-12-31', RESTATEMENT]));
    expect(of(rows, '2020-12-31', MSFT)!.shares).toBe('1050000');
    expect(await quarters()).toEqual([{ period: '2020-12-31', accessions: [RESTATEMENT] }]);
    const superseded = await pipeline.ds.query<Array<{ superseded_by: string | null }>>(`SELECT superseded_by FROM thirteenf_filings WHERE accession = $1`, [ORIGINAL]);
    expect(superseded).toEqual([{ superseded_by: RESTATEMENT }]);
  });

  it("the manager's next quarter carries the change against the restated quarter", async () => {
    await pipeline.publish([thirteenF(NEXT_QUARTER, '13F-HR', '2021-05-14', '2021-03-31')]);
    expect(await followOnce()).toMatchObject({ processed: 1, dead_lettered: 0 });
    await projected();
    const rows = await positions();
    // The earlier quarter is untouched.
    expect(rows.filter((r) => r.period === '2020-12-31')).toHaveLength(5);
    const change = (cusip: string) => {
      const r = of(rows, '2021-03-31', cusip);
      return r && { shares: r.shares, prev_shares: r.prev_shares, share_delta: r.share_delta, change: r.change };
    };
    expect(change(MSFT)).toEqual({ shares: '900000', prev_shares: '1050000', share_delta: '-150000', change: 'decreased' });
    expect(change(ALPHABET_C)).toEqual({ shares: '40000', prev_shares: '38127', share_delta: '1873', change: 'increased' });
    expect(change(APPLE)).toEqual({ shares: '1733777', prev_shares: '1733777', share_delta: '0', change: 'unchanged' });
    // Amazon, held in 2020Q4 and not in 2021Q1: sold out, the whole position as the delta.
    expect(change(AMAZON)).toEqual({ shares: '0', prev_shares: '46688', share_delta: '-46688', change: 'sold_out' });
    expect(await quarters()).toEqual([
      { period: '2020-12-31', accessions: [RESTATEMENT] },
      { period: '2021-03-31', accessions: [NEXT_QUARTER] },
    ]);
  });
});
