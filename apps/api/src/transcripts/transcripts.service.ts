import type { TranscriptListFilter, TranscriptRecord, TranscriptsRepository, TranscriptWithText } from '@app/persistence';
import { DomainError } from '../platform/api.errors';

export interface TranscriptPage {
  rows: TranscriptRecord[];
  hasMore: boolean;
}

export const unknownTranscript = (id: number): DomainError =>
  new DomainError('UnknownTranscript', `No transcript with the id ${id} has been published.`);

/** Transcript reads: keyset pages by call date, one transcript with its document text. */
export class TranscriptsService {
  constructor(private readonly repo: TranscriptsRepository) {}

  async list(filter: TranscriptListFilter, direction: 'asc' | 'desc', limit: number, after: { callDate: string; id: number } | undefined): Promise<TranscriptPage> {
    const rows = await this.repo.list({ filter, direction, limit: limit + 1, after });
    const hasMore = rows.length > limit;
    if (hasMore) rows.length = limit;
    return { rows, hasMore };
  }

  async get(id: number): Promise<TranscriptWithText> {
    const record = await this.repo.findById(id);
    if (!record) throw unknownTranscript(id);
    return record;
  }
}
