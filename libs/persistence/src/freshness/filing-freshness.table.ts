import type { FilingData } from '@app/contracts';
import { char, text, timestamptz, table } from '../table';

/**
 * When the pipeline first saw, published and served a filing that live discovery found, beside
 * EDGAR's acceptance time: the first stages of GET /v1/status/freshness. Written by the filings
 * projection, once per filing (a later sighting only moves first_seen_at earlier).
 */
export const FILING_FRESHNESS_TABLE = table('filing_freshness', ['accession'], {
  accession: text(),
  cik: char(10),
  /** As filed; filing_freshness_form_accepted_idx (upper(form), accepted_at DESC, accession DESC) serves ?form=. */
  form: text(),
  /** EDGAR's acceptance time, as the first sighting's record gave it; the window's order (filing_freshness_accepted_idx). */
  accepted_at: timestamptz(),
  /** The earliest sighting's observed_at: when a poller fetched the source that listed the filing. */
  first_seen_at: timestamptz(),
  /** That sighting's source: latest_filings | current_events | daily_index. */
  first_seen_source: text(),
  /** Kafka timestamp of the first record of the filing projected; null when the caller had none (seeds, tests). */
  published_at: timestamptz().nullable(),
  /** clock_timestamp() when the filing was first projected: from then the API serves it. */
  projected_at: timestamptz(),
});

/**
 * The sources of live discovery, whose records are news: the moment they are seen says how fresh
 * the pipeline is. Backfills (submissions JSON, bulk archives) and the 8-K worker's submission text
 * are history or follow-ups, and make no freshness row.
 */
export const LIVE_DISCOVERY_SOURCES: ReadonlyArray<FilingData['source']> = ['latest_filings', 'current_events', 'daily_index'];
