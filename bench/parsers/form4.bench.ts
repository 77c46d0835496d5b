import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseDocument } from 'htmlparser2';
import { parseForm4 } from '@app/edgar';

/*
 * `node dist/bench/parsers/form4.bench.js`: Form 4 documents per second of parseForm4 over the nine
 * real ownership documents in fixtures/form4 (bare XML and complete-submission .txt), against a
 * plain htmlparser2 `parseDocument` (xmlMode) of the same bytes: the DOM any DOM-walking parser
 * would build first. Each case runs in its own child process for ~BENCH_FORM4_SECONDS (default 5)
 * seconds, in 5 rounds; the best round counts (the machine is shared, the best round is the one
 * least disturbed). Every pass decodes the bytes to a string, as parseForm4 does.
 * Targets: >= 2,000 documents/s and >= 0.5x the plain parse. Exit 1 when a target is missed or the
 * parser does not find one row per row element of the files.
 */

// dist/bench/parsers -> repository root is three levels up; fixtures sit beside the repository.
const FIXTURES = process.env.FIXTURES_DIR ?? resolve(__dirname, '../../../../shared/fixtures');
const DIR = join(FIXTURES, 'form4');
const SECONDS = Number(process.env.BENCH_FORM4_SECONDS ?? 5);
const ROUNDS = 5;
const TARGET_DOCS_PER_SECOND = 2000;
const TARGET_RATIO = 0.5;

type Kind = 'form4' | 'dom';

interface CaseResult {
  kind: Kind;
  documents: number;
  ms: number;
  bestRoundDocsPerSecond: number;
  /** Rows (form4) or top-level nodes (dom) found per pass over the nine files. */
  itemsPerPass: number;
  peakRssMb: number;
}

function fixtureFiles(): string[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.xml') || f.endsWith('.txt'))
    .sort()
    .map((f) => join(DIR, f));
}

function once(kind: Kind, bytes: Buffer): number {
  switch (kind) {
    case 'form4':
      return parseForm4(bytes).rows.length;
    case 'dom':
      return parseDocument(bytes.toString('utf8'), { xmlMode: true }).children.length;
  }
}

function runCase(kind: Kind): CaseResult {
  const docs = fixtureFiles().map((f) => readFileSync(f));
  // Warm-up (JIT), not measured.
  for (let i = 0; i < 200; i += 1) for (const d of docs) once(kind, d);
  let itemsPerPass = 0;
  for (const d of docs) itemsPerPass += once(kind, d);
  let documents = 0;
  let ms = 0;
  let best = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    let roundDocs = 0;
    const start = process.hrtime.bigint();
    let elapsedMs = 0;
    while (elapsedMs < (SECONDS * 1000) / ROUNDS) {
      for (const d of docs) once(kind, d);
      roundDocs += docs.length;
      elapsedMs = Number(process.hrtime.bigint() - start) / 1e6;
    }
    documents += roundDocs;
    ms += elapsedMs;
    best = Math.max(best, roundDocs / (elapsedMs / 1000));
  }
  return { kind, documents, ms, bestRoundDocsPerSecond: best, itemsPerPass, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

function inChild(kind: Kind): CaseResult {
  const r = spawnSync(process.execPath, [__filename, '--case', kind], { encoding: 'utf8', env: process.env, maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`form4 bench case ${kind} failed (${r.status}): ${r.stderr}`);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as CaseResult;
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function main(): number {
  const i = process.argv.indexOf('--case');
  if (i >= 0) {
    console.log(JSON.stringify(runCase(process.argv[i + 1] as Kind)));
    return 0;
  }
  const files = fixtureFiles();
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const kb = texts.reduce((s, t) => s + Buffer.byteLength(t), 0) / 1024;
  // One row per row element: what the parser must find on every pass.
  const rowElements = texts.reduce((s, t) => s + (t.match(/<(?:nonDerivative|derivative)(?:Transaction|Holding)>/g)?.length ?? 0), 0);
  console.log(`Form 4: ${files.length} ownership documents (${fmt(kb, 1)} KB per pass), ~${SECONDS} s per case in ${ROUNDS} rounds, node ${process.version}`);
  const [form4, dom] = (['form4', 'dom'] as const).map(inChild) as [CaseResult, CaseResult];
  console.log('case | impl | documents | ms | documents/s (mean) | documents/s (best round) | per pass | peak RSS MB');
  for (const r of [form4, dom]) {
    const impl = r.kind === 'form4' ? 'parseForm4' : 'baseline: htmlparser2 parseDocument (xmlMode)';
    const perPass = r.kind === 'form4' ? `${r.itemsPerPass} rows` : `${r.itemsPerPass} top nodes`;
    console.log(`${files.length} Form 4s | ${impl} | ${fmt(r.documents)} | ${fmt(r.ms)} | ${fmt(r.documents / (r.ms / 1000))} | ${fmt(r.bestRoundDocsPerSecond)} | ${perPass} | ${fmt(r.peakRssMb, 1)}`);
  }
  const ratio = form4.bestRoundDocsPerSecond / dom.bestRoundDocsPerSecond;
  const rateMet = form4.bestRoundDocsPerSecond >= TARGET_DOCS_PER_SECOND;
  const ratioMet = ratio >= TARGET_RATIO;
  const rowsMet = form4.itemsPerPass === rowElements;
  console.log(`${files.length} Form 4s | ratio parseForm4/parseDocument | x${fmt(ratio, 2)} documents/s | peak RSS x${fmt(form4.peakRssMb / dom.peakRssMb, 2)}`);
  console.log(
    `targets: >= ${fmt(TARGET_DOCS_PER_SECOND)} documents/s ${rateMet ? 'met' : 'MISSED'}; ` +
      `>= x${TARGET_RATIO} the plain parse ${ratioMet ? 'met' : 'MISSED'}; ` +
      `${form4.itemsPerPass} rows for ${rowElements} row elements ${rowsMet ? 'ok' : 'MISMATCH'}`,
  );
  return rateMet && ratioMet && rowsMet ? 0 : 1;
}

process.exit(main());
