import type { Page, PageRequest, TranscriptListFilter, TranscriptRecord, TranscriptsRepository, TranscriptWithText } from '@app/persistence';
import { DomainError } from '../platform/api.errors';

export const unknownTranscript = (id: number): DomainError =>
  new DomainError('UnknownTranscript', `No transcript with the id ${id} has been published.`);

/** Transcript reads: keyset pages by call date, one transcript with its document text. */
export class TranscriptsService {
  constructor(private readonly repo: TranscriptsRepository) {}

  list(filter: TranscriptListFilter, page: PageRequest): Promise<Page<TranscriptRecord>> {
    return this.repo.list(filter, page);
  }

  async get(id: number): Promise<TranscriptWithText> {
    const record = await this.repo.findById(id);
    if (!record) throw unknownTranscript(id);
    return record;
  }
}
