import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { promisify } from 'node:util';
import { Parser } from 'htmlparser2';
import { NportStreamParser } from '@app/edgar';

/*
 * N-PORT parser bench: holdings/s, MB/s and peak RSS of the streaming NPORT-P parser against a
 * plain parse of the same bytes with the same library (htmlparser2's Parser, xmlMode, no-op
 * handlers, same 64 KB stream and UTF-8 decoding), on the largest fixture (GS Bond Fund, 2.6 MB,
 * 1,685 holdings) and on a ~100 MB file built here by repeating that file's real holdings.
 * Every case runs in its own child process so each peak RSS (process.resourceUsage().maxRSS)
 * belongs to that case alone. Prints figures; asserts the 256 MB target and nothing about speed.
 */

const FIXTURES = process.env.FIXTURES_DIR ?? resolve(__dirname, '../../../../shared/fixtures');
const GS_FILE = join(FIXTURES, 'nport/GSTRUST-S000013795-NPORT_Sample_7.xml');
const TARGET_BYTES = Number(process.env.BENCH_NPORT_MB ?? 100) * 1024 * 1024;
const RSS_LIMIT_MB = 256;
const STREAM_CHUNK = 64 * 1024;

type Impl = 'nport' | 'baseline';

interface CaseResult {
  impl: Impl;
  bytes: number;
  holdings: number;
  ms: number;
  maxRssMb: number;
}

/** Child side: parse one file, print one JSON line. */
async function child(impl: Impl, file: string): Promise<void> {
  const started = process.hrtime.bigint();
  let holdings = 0;
  const decoder = new StringDecoder('utf8');
  let write: (s: string) => void;
  let end: () => void;
  if (impl === 'nport') {
    const parser = new NportStreamParser({ onHolding: () => { holdings += 1; } });
    write = (s) => parser.write(s);
    end = () => { parser.end(); };
  } else {
    // The baseline: the tokenizer alone, every callback a no-op except counting holdings' open tags.
    const parser = new Parser({ onopentag: (name) => { if (name === 'invstOrSec') holdings += 1; } }, { xmlMode: true, decodeEntities: false });
    write = (s) => parser.write(s);
    end = () => parser.end();
  }
  let bytes = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: STREAM_CHUNK })) {
    bytes += (chunk as Buffer).length;
    write(decoder.write(chunk as Buffer));
  }
  write(decoder.end());
  end();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const result: CaseResult = { impl, bytes, holdings, ms, maxRssMb: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** Writes header + the holdings block repeated until `target` bytes + tail, streaming (never whole in memory). */
async function buildLargeFile(dir: string, target: number): Promise<{ path: string; copies: number }> {
  const text = readFileSync(GS_FILE, 'utf8');
  const open = text.indexOf('<invstOrSecs>') + '<invstOrSecs>'.length;
  const close = text.indexOf('</invstOrSecs>');
  const head = text.slice(0, open);
  const block = text.slice(open, close);
  const tail = text.slice(close);
  const path = join(dir, 'nport-100mb.xml');
  const out = createWriteStream(path);
  const write = (s: string) => new Promise<void>((res) => (out.write(s) ? res() : out.once('drain', () => res())));
  await write(head);
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail);
  const blockBytes = Buffer.byteLength(block);
  let copies = 0;
  while (size + blockBytes <= target || copies === 0) {
    await write(block);
    size += blockBytes;
    copies += 1;
  }
  await write(tail);
  await new Promise<void>((res, rej) => out.end((err?: Error | null) => (err ? rej(err) : res())));
  return { path, copies };
}

const run = promisify(execFile);

async function runCase(impl: Impl, file: string): Promise<CaseResult> {
  const { stdout } = await run(process.execPath, [__filename, '--child', impl, file], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as CaseResult;
}

/** Best (fastest) of `n` runs; peak RSS is the largest seen. */
async function best(impl: Impl, file: string, n: number): Promise<CaseResult> {
  let out: CaseResult | undefined;
  let rss = 0;
  for (let i = 0; i < n; i += 1) {
    const r = await runCase(impl, file);
    rss = Math.max(rss, r.maxRssMb);
    if (!out || r.ms < out.ms) out = r;
  }
  return { ...out!, maxRssMb: rss };
}

const f1 = (n: number) => n.toFixed(1);
const int = (n: number) => Math.round(n).toLocaleString('en-US');

export async function runNportBench(): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'nport-bench-'));
  try {
    const large = await buildLargeFile(dir, TARGET_BYTES);
    const cases: Array<{ label: string; file: string; runs: number }> = [
      { label: `GS Bond Fund fixture (${f1(statSync(GS_FILE).size / 1e6)} MB)`, file: GS_FILE, runs: 5 },
      { label: `built file (${f1(statSync(large.path).size / 1e6)} MB, ${large.copies} x the GS holdings)`, file: large.path, runs: 1 },
    ];
    console.log('\nN-PORT parser (streaming, holdings one by one) vs plain htmlparser2 parse of the same bytes');
    console.log('case | impl | MB | holdings | ms | MB/s | holdings/s | peak RSS MB');
    let ok = true;
    for (const c of cases) {
      const nport = await best('nport', c.file, c.runs);
      const base = await best('baseline', c.file, c.runs);
      for (const r of [nport, base]) {
        const mb = r.bytes / 1e6;
        console.log(`${c.label} | ${r.impl} | ${f1(mb)} | ${int(r.holdings)} | ${int(r.ms)} | ${f1(mb / (r.ms / 1000))} | ${int(r.holdings / (r.ms / 1000))} | ${f1(r.maxRssMb)}`);
      }
      console.log(`${c.label} | ratio nport/baseline | time x${(nport.ms / base.ms).toFixed(2)} | throughput ${(100 * base.ms / nport.ms).toFixed(0)} % of baseline | peak RSS x${(nport.maxRssMb / base.maxRssMb).toFixed(2)}`);
      if (nport.holdings !== base.holdings) {
        console.log(`  holdings differ: nport ${nport.holdings}, baseline open tags ${base.holdings}`);
        ok = false;
      }
      if (nport.maxRssMb >= RSS_LIMIT_MB) {
        console.log(`  peak RSS ${f1(nport.maxRssMb)} MB is not under the ${RSS_LIMIT_MB} MB target`);
        ok = false;
      }
    }
    console.log(ok ? `N-PORT: every case under ${RSS_LIMIT_MB} MB peak RSS` : 'N-PORT: FAILED a check above');
    return ok;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const [flag, impl, file] = process.argv.slice(2);
  const main = flag === '--child' && (impl === 'nport' || impl === 'baseline') && file ? child(impl, file) : runNportBench().then((ok) => { if (!ok) process.exitCode = 1; });
  main.catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
