/** A source file that does not have the shape SEC publishes. Permanent: retrying will not fix it. */
export class EdgarParseError extends Error {
  constructor(readonly source: string, message: string) {
    super(`${source}: ${message}`);
    this.name = 'EdgarParseError';
  }
}
