import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { contentHash, type TopicDefinition } from '@app/contracts';
import { EdgarClient, parseThirteenFSecuritiesList } from '@app/edgar';
import type { Logger } from '@app/observability';
import type { FetchedSource } from '../company.mapper';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from '../ingest.providers';
import { thirteenFListPath, thirteenFListUrl, thirteenFSecuritiesRecords } from './thirteenf-securities.mapper';

export const THIRTEENF_SECURITIES_TOPIC = Symbol('THIRTEENF_SECURITIES_TOPIC');

/** `--quarter 2020Q3` fetches SEC's list; `--file` reads a copy of it (cited at its www.sec.gov URL). */
export interface ThirteenFListCommand {
  quarter: string;
  file?: string;
  runId?: string;
}

export interface ThirteenFListSummary {
  runId: string;
  quarter: string;
  status: 'published' | 'not_found';
  securities: number;
  records: number;
}

/**
 * The Official List of Section 13(f) Securities of a quarter: fetch the PDF through the EDGAR
 * client and budget (or read a file) -> pure parse -> 13f-securities@1 chunks on
 * edgar.13f-securities.v1, which the projection uses to tell 13(f) CUSIPs from typos.
 */
@Injectable()
export class ThirteenFListService {
  constructor(
    @Inject(EdgarClient) private readonly edgar: EdgarClient,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(THIRTEENF_SECURITIES_TOPIC) private readonly topic: TopicDefinition,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
  ) {}

  async execute(command: ThirteenFListCommand): Promise<ThirteenFListSummary> {
    const runId = command.runId ?? `run_${randomUUID()}`;
    const log = this.logger.child({ runId, useCase: '13f-list', quarter: command.quarter });
    const url = thirteenFListUrl(command.quarter);
    let bytes: Uint8Array;
    let fetchedAt: string;
    if (command.file) {
      bytes = await readFile(command.file);
      fetchedAt = new Date().toISOString();
    } else {
      const result = await this.edgar.getWww(thirteenFListPath(command.quarter));
      if (result.kind === 'not_found') {
        log.warn({ url: result.url }, '13(f) securities list not found (404): SEC publishes it after the quarter ends');
        return { runId, quarter: command.quarter, status: 'not_found', securities: 0, records: 0 };
      }
      bytes = result.bytes;
      fetchedAt = result.fetchedAt;
    }
    const source: FetchedSource = { url, contentHash: contentHash(bytes), fetchedAt };
    const securities = await parseThirteenFSecuritiesList(bytes);
    const records = thirteenFSecuritiesRecords(command.quarter, securities, source, { runId, origin: 'backfill', extractedAt: new Date().toISOString() });
    for (const record of records) await this.publisher.publish(this.topic, [record]);
    log.info({ url, file: command.file ?? null, securities: securities.length, records: records.length, topic: this.topic.name }, '13(f) securities list published');
    return { runId, quarter: command.quarter, status: 'published', securities: securities.length, records: records.length };
  }
}
