import { DOCUMENT_KINDS, padCik, type DocumentKind, type RecordOrigin } from '@app/contracts';
import type { DeckLink } from './document-text.mapper';

/** `url`: its records are history (backfill) unless `--live` says the crawl missed a new document. */
export type DecksCommand = { mode: 'consume' } | { mode: 'once' } | { mode: 'url'; link: DeckLink; origin: RecordOrigin };

export const USAGE = [
  'usage: npm run ingest-decks -- [--once | --url <pdf-url> --cik <cik> ...]',
  'ingest-decks                      consume ir.documents.v1 until stopped',
  'ingest-decks --once               consume up to the end of the topic, then exit',
  'ingest-decks --url <pdf-url> --cik <cik> [--ticker T] [--title T] [--kind presentation|annual_report|...] [--live]',
  '                                  process one PDF without the topic (publishes its records)',
  '  --live                          with --url: a PDF the crawl missed, published as a live discovery (a transcript in it is announced)',
  'Exit codes: 0 done, 1 failed (--url: the PDF was rejected), 2 configuration or usage error,',
  '75 a broker outage outlasted KAFKA_PUBLISH_RETRY_MS (run it again).',
].join('\n');

const isKind = (value: string): value is DocumentKind => (DOCUMENT_KINDS as readonly string[]).includes(value);

/** Command-line arguments -> what to run, or an error message naming the first problem. */
export function parseArgs(args: readonly string[]): DecksCommand | { help: true } | { error: string } {
  if (args.includes('--help') || args.includes('-h')) return { help: true };
  const values = new Map<string, string>();
  let once = false;
  let live = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--once') {
      once = true;
      continue;
    }
    if (arg === '--live') {
      live = true;
      continue;
    }
    if (!['--url', '--cik', '--ticker', '--title', '--kind'].includes(arg)) return { error: `unknown argument ${JSON.stringify(arg)}` };
    const value = args[i + 1];
    if (value === undefined || value.startsWith('--')) return { error: `${arg} needs a value` };
    values.set(arg, value);
    i += 1;
  }
  // The consumer keeps each document link's own origin: --live only says what one --url PDF is.
  if (values.size === 0 && live) return { error: '--live goes with --url: it marks that one PDF as a live discovery' };
  if (values.size === 0) return once ? { mode: 'once' } : { mode: 'consume' };
  if (once) return { error: '--once consumes the topic; --url processes one PDF: give one or the other' };

  const url = values.get('--url');
  if (!url) return { error: '--url is required with --cik/--ticker/--title/--kind' };
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) return { error: `--url wants an http(s) URL, got ${JSON.stringify(url)}` };
  const cik = values.get('--cik') ?? '';
  if (!/^\d{1,10}$/.test(cik)) return { error: `--cik wants the issuer's CIK (up to 10 digits), got ${JSON.stringify(cik)}` };
  const kind = values.get('--kind') ?? null;
  if (kind !== null && !isKind(kind)) return { error: `--kind wants one of ${DOCUMENT_KINDS.join(', ')}, got ${JSON.stringify(kind)}` };
  return {
    mode: 'url',
    link: { url: new URL(url).href, cik: padCik(cik), ticker: values.get('--ticker')?.toUpperCase() ?? null, title: values.get('--title') ?? null, kind },
    origin: live ? 'live' : 'backfill',
  };
}
