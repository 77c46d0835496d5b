import { EVENT_TYPES, WEBHOOK_TOPICS } from '@app/resources';
import {
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  DEFAULT_DISABLE_AFTER,
  DEFAULT_RETRY_SCHEDULE,
  MAX_RETRY_AFTER_MS,
  parseDuration,
  parseRetrySchedule,
  RETRY_JITTER,
  SECRET_ROTATION_GRACE_HOURS,
  SLOW_DOWN_STATUSES,
} from '@app/webhooks';
import { BUILT_IN_SAMPLES } from '../webhooks/webhooks.samples';
import { testPingData } from '../webhooks/webhooks.service';
import { codeBlock, DOCS_NAV, escapeHtml, inline, page } from './docs-html';
import { EXAMPLE_LIMITS, RECORDED_EVENTS, RECORDED_EXAMPLES } from './openapi.presentation';

type EventType = (typeof EVENT_TYPES)[number];
type Json = Record<string, unknown>;

/** What makes each event and what its `data` is (a type without an entry fails typecheck). */
const EVENT_CATALOG: Record<EventType, { when: string; data: string }> = {
  'filing.created': {
    when: 'A new SEC EDGAR filing of a covered company is indexed.',
    data: 'The filing as `GET /v1/filings/{accession}` serves it.',
  },
  'form4.filed': {
    when: 'A new Form 4 or 4/A (insider transactions) is read.',
    data: 'The filing, its issuer and reporting owners, and its table rows as `GET /v1/companies/{symbol}/insiders` serves them.',
  },
  'ir_document.created': {
    when: "A new document (deck, release, report) is found on an issuer's investor-relations pages or in an 8-K exhibit.",
    data: 'The document as `GET /v1/documents/{doc_id}` serves it.',
  },
  'transcript.published': {
    when: 'An earnings-call transcript passes the serving gate.',
    data: 'The transcript, every turn included, as `GET /v1/transcripts/{transcript_id}` serves it.',
  },
  '13f.filed': {
    when: "A new Form 13F of an institutional manager is read.",
    data: 'The filing without its holdings (manager, quarter, count and total value); `GET /v1/institutions/{cik}/holdings` serves the positions.',
  },
  'webhook.test': {
    when: '`POST /v1/webhook-endpoints/{id}/test` without a `topic`: a ping to check that the endpoint receives and verifies deliveries.',
    data: 'The endpoint id and a message.',
  },
};

/** The one event of the recorded /v1/events example (a real filing.created event of the fixture run). */
function recordedEvent(): { type: string; timestamp: string; data: unknown } {
  const events = (RECORDED_EXAMPLES.listEvents?.['200'] as { data: { type: string; timestamp: string; data: unknown }[] } | undefined)?.data ?? [];
  const event = events.find((e) => e.type === 'filing.created');
  if (!event) throw new Error('openapi.examples.json has no recorded filing.created event');
  return event;
}

/**
 * A payload of each event type: the recorded webhook body of a real event of the fixture run
 * (test/openapi-examples.e2e-spec.ts); for a type the run produced none of, the recorded answer of
 * the route whose mapper makes the event's data, else the built-in sample a test event of the
 * topic sends (fixture values: webhooks.samples.ts). The ping is made here, as the test route makes it.
 */
export function eventExamples(): Record<EventType, Json> {
  const filing = recordedEvent();
  const envelope = (type: EventType, data: unknown, test = false): Json => ({ type, timestamp: filing.timestamp, ...(test ? { test: true } : {}), data });
  const recorded = (type: EventType, operationId?: string): Json => {
    const event = RECORDED_EVENTS[type] as Json | undefined;
    if (event) return event;
    const body = operationId ? RECORDED_EXAMPLES[operationId]?.['200'] : undefined;
    return envelope(type, body ?? BUILT_IN_SAMPLES[type as keyof typeof BUILT_IN_SAMPLES]);
  };
  return {
    'filing.created': (RECORDED_EVENTS['filing.created'] as Json | undefined) ?? { type: filing.type, timestamp: filing.timestamp, data: filing.data },
    'form4.filed': recorded('form4.filed'),
    'ir_document.created': recorded('ir_document.created', 'getDocument'),
    'transcript.published': recorded('transcript.published', 'getTranscript'),
    '13f.filed': recorded('13f.filed'),
    'webhook.test': envelope('webhook.test', testPingData('we_8f14e45fceea167a5a36dedd'), true),
  };
}

/** `5000` -> `5 s`, `7200000` -> `2 h`, `99305000` -> `27 h 35 min 5 s`. */
export function humanDuration(ms: number): string {
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  for (const [unit, seconds] of [['d', 86_400], ['h', 3600], ['min', 60], ['s', 1]] as const) {
    if (rest >= seconds && !(unit === 'd' && rest < 2 * 86_400)) {
      parts.push(`${Math.floor(rest / seconds)} ${unit}`);
      rest %= seconds;
    }
  }
  return parts.join(' ') || `${ms} ms`;
}

/** The retry table of DEFAULT_RETRY_SCHEDULE: attempt, delay before it, time since the first attempt. */
export function retryRows(schedule: readonly number[] = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE)): { attempt: number; delay: string; since: string }[] {
  let since = 0;
  return schedule.map((delay, i) => {
    since += delay;
    return { attempt: i + 2, delay: humanDuration(delay), since: humanDuration(since) };
  });
}

const VERIFY_SNIPPET = `// npm install standardwebhooks
import { createServer } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

// The signing_secret of POST /v1/webhook-endpoints (or of rotate-secret): whsec_...
const webhook = new Webhook(process.env.FILINGS_WEBHOOK_SECRET!);

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    // Verify the raw bytes: a parsed and re-serialized body no longer matches the signature.
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      const event = webhook.verify(body, {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      }) as { type: string; timestamp: string; test?: boolean; data: unknown };
      // webhook-id is the event id: the same on every retry, so skip ids already handled.
      console.log(req.headers['webhook-id'], event.type, event.data);
      res.writeHead(204).end();
    } catch (err) {
      res.writeHead(err instanceof WebhookVerificationError ? 401 : 500).end();
    }
  });
}).listen(8080);
`;

/** The /docs/webhooks page. `publicBaseUrl`: the api's public origin. */
export function webhooksPageHtml(publicBaseUrl: string): string {
  const examples = eventExamples();
  const catalog = EVENT_TYPES.map(
    (type) =>
      `<h3 id="${type}"><code>${type}</code></h3>\n<p>${inline(EVENT_CATALOG[type].when)} <code>data</code>: ${inline(EVENT_CATALOG[type].data)}</p>\n` +
      codeBlock(JSON.stringify(examples[type], null, 2)),
  ).join('');
  const retries = retryRows()
    .map((r) => `<tr><td>${r.attempt}</td><td>${r.delay}</td><td>${r.since}</td></tr>`)
    .join('\n');
  const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
  return page(
    'Webhooks',
    DOCS_NAV +
      '<h1>Webhooks</h1>\n' +
      `<p>Register an https URL with <code>POST /v1/webhook-endpoints</code> (builder plan and above) for any of the topics ${WEBHOOK_TOPICS.map((t) => `<a href="#${t}"><code>${t}</code></a>`).join(', ')}: ` +
      'every new event of those topics is POSTed to it as JSON, signed. The answer carries the endpoint&#39;s <code>signing_secret</code> (<code>whsec_...</code>), shown only then. ' +
      'The same events are kept in the <a href="#replay">events feed</a>.</p>\n' +
      '<h2 id="events">Events</h2>\n' +
      '<p>Every delivery&#39;s body is <code>{"type", "timestamp", ["test": true,] "data"}</code>: <code>type</code> is the event type, <code>timestamp</code> when the event was made (ISO 8601, ' +
      'not when this attempt was sent), <code>test</code> is present on test events only, and <code>data</code> is the resource exactly as the API serves it. ' +
      'Clients should ignore fields they do not know: new ones may appear.</p>\n' +
      '<p id="history"><strong>History is not news.</strong> Events announce what the platform discovers live: a filing the live poller finds on EDGAR, ' +
      'the Form 4, 13F or 8-K exhibits read because of it, a document that appears on an investor-relations site after its first crawl. ' +
      'What a backfill loads (SEC&#39;s bulk archives, a company&#39;s or a quarter&#39;s past filings, a site&#39;s first crawl) is history: it makes no event, ' +
      'neither delivered nor in the events feed, however many years it covers. So after a backfill you receive nothing for the history it loaded, ' +
      'and exactly one event for each entity discovered live afterwards: for a filing, Form 4 or 13F also when the backfill had already loaded it (an IR site&#39;s old documents found again stay history).</p>\n' +
      `<p>The payloads below are real: recorded from the API on the fixture data, cut for this page as the API reference&#39;s examples are (lists to their first ${EXAMPLE_LIMITS.items} items, ` +
      `texts to ${EXAMPLE_LIMITS.chars} characters and an ellipsis); a delivery carries the whole resource.</p>\n` +
      catalog +
      '<h2 id="headers">Headers</h2>\n<table><tr><th>Header</th><th>Value</th></tr>\n' +
      '<tr><td><code>webhook-id</code></td><td>The event id (<code>evt_...</code>; <code>evt_test_...</code> for test events): the same on every attempt and retry of the event, and the <code>id</code> in <code>/v1/events</code>. Use it to drop duplicates.</td></tr>\n' +
      '<tr><td><code>webhook-timestamp</code></td><td>When this attempt was signed, in seconds since the epoch.</td></tr>\n' +
      '<tr><td><code>webhook-signature</code></td><td><code>v1,&lt;base64 signature&gt;</code>; two of them, space-separated, while a rotated secret is still valid.</td></tr>\n' +
      `<tr><td><code>User-Agent</code></td><td><code>filings-platform-webhooks/1.0 (+${escapeHtml(publicBaseUrl)}/docs/webhooks)</code> (a deployment may set its own).</td></tr>\n` +
      '<tr><td><code>Content-Type</code></td><td><code>application/json</code></td></tr>\n</table>\n' +
      '<h2 id="signature">Signature</h2>\n' +
      '<p>Deliveries are signed with the <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> scheme, so any Standard Webhooks library verifies them: ' +
      'the signature is the base64 HMAC-SHA256 of <code>&lt;webhook-id&gt;.&lt;webhook-timestamp&gt;.&lt;body&gt;</code>, keyed with the base64-decoded part of the secret after <code>whsec_</code>. ' +
      'Verify the raw body as received, compare in constant time, and refuse a timestamp more than a few minutes from now (the libraries allow 5 minutes).</p>\n' +
      `<p>Rotation: <code>POST /v1/webhook-endpoints/{id}/rotate-secret</code> answers a new secret; the previous one keeps signing beside it for ${SECRET_ROTATION_GRACE_HOURS} hours ` +
      '(<code>previous_secret_expires_at</code>), so <code>webhook-signature</code> carries both signatures meanwhile and a receiver holding either secret verifies the delivery. ' +
      'Switch your receiver to the new secret within that time.</p>\n' +
      '<h3 id="verify">Verifying in TypeScript</h3>\n<p>With the <code>standardwebhooks</code> package (Node.js):</p>\n' +
      codeBlock(VERIFY_SNIPPET) +
      '<h2 id="retries">Answering, and retries</h2>\n' +
      `<p>Answer any 2xx within ${DEFAULT_ATTEMPT_TIMEOUT_MS / 1000} seconds (do the work after answering). Redirects are not followed. ` +
      'Any other status, a timeout or a network error is a failed attempt, retried after these delays ' +
      `(each ±${Math.round(RETRY_JITTER * 100)} %, so the retries of many deliveries that failed together spread out):</p>\n` +
      `<table><tr><th>Attempt</th><th>Delay after the previous attempt</th><th>Time since the first attempt</th></tr>\n<tr><td>1</td><td>(at once)</td><td>0</td></tr>\n${retries}\n</table>\n` +
      `<p>After attempt ${schedule.length + 1} fails the delivery is <code>failed</code>. ` +
      `Statuses ${SLOW_DOWN_STATUSES.join(', ')} ask the sender to slow down: the delay doubles, and a longer <code>Retry-After</code> (seconds or an HTTP date, at most ${humanDuration(MAX_RETRY_AFTER_MS)}) is honoured; ` +
      'neither adds attempts. <code>410 Gone</code> disables the endpoint at once (<code>disabled_reason</code> <code>gone</code>). ' +
      `An endpoint failing without a success for ${humanDuration(parseDuration(DEFAULT_DISABLE_AFTER))} is disabled (<code>failing</code>). ` +
      '<code>PATCH /v1/webhook-endpoints/{id}</code> with <code>{"enabled": true}</code> re-enables an endpoint and clears its failure streak.</p>\n' +
      '<h2 id="replay">Replay and recovery</h2>\n<ul>\n' +
      '<li><code>GET /v1/webhook-endpoints/{id}/deliveries</code> lists the endpoint&#39;s deliveries, newest first, each with every attempt (status code, duration, response excerpt, error, next attempt); <code>?status=failed</code> narrows it.</li>\n' +
      '<li><code>POST /v1/webhook-endpoints/{id}/deliveries/{delivery_id}/retry</code> sends one delivery again now: same event, same <code>webhook-id</code>.</li>\n' +
      '<li><code>POST /v1/webhook-endpoints/{id}/recover</code> with <code>{"since": "2025-08-01T00:00:00Z"}</code> requeues every failed delivery created since then.</li>\n' +
      '<li><code>GET /v1/events</code> is the feed of every event, oldest first, with the ids of their <code>webhook-id</code> headers (<code>?types=</code> narrows it). ' +
      'Its <code>next_cursor</code> is set even on the last page: keep it and call again later to get what happened since, so a receiver that was down fills any gap from the feed without waiting for retries.</li>\n' +
      '<li><code>POST /v1/webhook-endpoints/{id}/test</code> sends a test event now: with <code>{"topic": "filing.created"}</code> a sample of that topic&#39;s data (the newest such resource) marked <code>"test": true</code>; without, a <code>webhook.test</code> ping.</li>\n' +
      '</ul>\n' +
      '<p>When the platform rebuilds its database from its records (a replay into a fresh database), every event comes back as it was: ' +
      'the same id, <code>timestamp</code>, data and place in the feed. A replay sends no delivery: nothing reaches your endpoint twice because of it.</p>\n' +
      '<h2 id="local">Local runs: http and private addresses</h2>\n' +
      '<p>Endpoint URLs must be https and resolve to public addresses: <code>POST</code> and <code>PATCH</code> answer 422 otherwise, and the dispatcher checks the address again at every attempt. ' +
      'A deployment that sets <code>WEBHOOKS_ALLOW_HTTP=true</code> accepts plain <code>http://</code> URLs, and <code>WEBHOOKS_ALLOW_PRIVATE_HOSTS=true</code> loopback, private and link-local addresses ' +
      '(set both on the api and on the webhooks dispatcher). The local run (<code>scripts/run.sh</code>) sets both, so a receiver on <code>http://127.0.0.1:8080/</code> works there; production leaves them unset.</p>\n',
  );
}
