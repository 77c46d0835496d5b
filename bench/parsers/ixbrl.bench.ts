import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Parser, parseDocument } from 'htmlparser2';
import { extractSegments } from '@app/edgar';

/*
 * `node dist/bench/parsers/ixbrl.bench.js`: inline-XBRL segment extraction throughput over the
 * three real 10-Qs (AAPL, TSLA, NVDA), repeated for ~BENCH_IXBRL_SECONDS (default 5) seconds,
 * against the same bytes parsed by the same library without extraction:
 *   - baseline `dom`: htmlparser2 parseDocument (xmlMode, entities decoded), the DOM the extractor
 *     builds before it reads contexts, units, facts and table rows;
 *   - baseline `tokenize`: htmlparser2 Parser with no handlers (the tokenizer alone).
 * Each case runs in its own child process, so its peak RSS (process.resourceUsage().maxRSS) is its
 * own. Every pass decodes the bytes to a string, as the extractor does. Prints a table; asserts
 * nothing about speed, exits 1 if the extractor finds no facts.
 */

// dist/bench/parsers -> repository root is three levels up; fixtures sit beside the repository.
const FIXTURES = process.env.FIXTURES_DIR ?? resolve(__dirname, '../../../../shared/fixtures');
const FILES = ['AAPL-aapl-20250329.htm', 'TSLA-tsla-10-q-2025-07-24.html', 'NVDA-nvda-10-q-2025-08-27.html'].map((f) => join(FIXTURES, 'xbrl', f));
const SECONDS = Number(process.env.BENCH_IXBRL_SECONDS ?? 5);

type Kind = 'extract' | 'dom' | 'tokenize';

interface CaseResult {
  kind: Kind;
  passes: number;
  bytes: number;
  ms: number;
  facts: number;
  peakRssMb: number;
}

function once(kind: Kind, bytes: Buffer): number {
  switch (kind) {
    case 'extract':
      return extractSegments(bytes).facts.length;
    case 'dom':
      return parseDocument(bytes.toString('utf8'), { xmlMode: true, decodeEntities: true }).children.length;
    case 'tokenize': {
      const parser = new Parser({}, { xmlMode: true, decodeEntities: true });
      parser.end(bytes.toString('utf8'));
      return 0;
    }
  }
}

function runCase(kind: Kind): CaseResult {
  const docs = FILES.map((f) => readFileSync(f));
  // Warm-up: one pass over every document (JIT), not measured.
  for (const d of docs) once(kind, d);
  let passes = 0;
  let bytes = 0;
  let facts = 0;
  const start = process.hrtime.bigint();
  let elapsedMs = 0;
  while (elapsedMs < SECONDS * 1000) {
    for (const d of docs) {
      facts += once(kind, d);
      bytes += d.length;
    }
    passes += 1;
    elapsedMs = Number(process.hrtime.bigint() - start) / 1e6;
  }
  return { kind, passes, bytes, ms: elapsedMs, facts: facts / passes, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

function inChild(kind: Kind): CaseResult {
  const r = spawnSync(process.execPath, [__filename, '--case', kind], { encoding: 'utf8', env: process.env, maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`ixbrl bench case ${kind} failed (${r.status}): ${r.stderr}`);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as CaseResult;
}

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function main(): number {
  const i = process.argv.indexOf('--case');
  if (i >= 0) {
    console.log(JSON.stringify(runCase(process.argv[i + 1] as Kind)));
    return 0;
  }
  const mb = FILES.reduce((sum, f) => sum + readFileSync(f).length, 0) / 1e6;
  console.log(`inline XBRL: AAPL, TSLA and NVDA 10-Qs (${fmt(mb, 2)} MB per pass), ~${SECONDS} s per case, node ${process.version}`);
  const results = (['extract', 'dom', 'tokenize'] as const).map(inChild);
  const rate = (r: CaseResult) => r.bytes / 1e6 / (r.ms / 1000);
  console.log('case | impl | passes | MB | ms | MB/s | facts/pass | peak RSS MB');
  for (const r of results) {
    const impl = r.kind === 'extract' ? 'segment extraction' : r.kind === 'dom' ? 'baseline: parseDocument' : 'baseline: Parser, no handlers';
    console.log(`3 10-Qs | ${impl} | ${r.passes} | ${fmt(r.bytes / 1e6)} | ${fmt(r.ms, 0)} | ${fmt(rate(r))} | ${r.kind === 'extract' ? r.facts : '-'} | ${fmt(r.peakRssMb)}`);
  }
  const [extract, dom, tokenize] = results as [CaseResult, CaseResult, CaseResult];
  for (const base of [dom, tokenize]) {
    const name = base.kind === 'dom' ? 'parseDocument' : 'Parser, no handlers';
    console.log(
      `3 10-Qs | ratio extraction/${name} | throughput ${fmt((rate(extract) / rate(base)) * 100, 0)} % of baseline | ` +
        `time per MB x${fmt(rate(base) / rate(extract), 2)} | peak RSS x${fmt(extract.peakRssMb / base.peakRssMb, 2)}`,
    );
  }
  return extract.facts > 0 ? 0 : 1;
}

process.exit(main());
