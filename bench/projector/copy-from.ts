import type { Client } from 'pg';

/* The connection methods pg's Submittable hook calls; pg exposes no type for them. */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/**
 * COPY ... FROM STDIN of `text` (COPY's text format) on a pg Client, through pg's Submittable hook
 * (the protocol pg-copy-streams speaks, which is not a dependency): on the client's own connection,
 * inside its transaction.
 */
export function copyFrom(client: Client, sql: string, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let error: Error | undefined;
    const submittable = {
      submit(connection: CopyConnection) {
        connection.query(sql);
      },
      handleCopyInResponse(connection: CopyConnection) {
        connection.sendCopyFromChunk(Buffer.from(text));
        connection.endCopyFrom();
      },
      handleCommandComplete() {},
      handleError(err: Error) {
        error = err;
      },
      handleReadyForQuery() {
        if (error) reject(error);
        else resolve();
      },
    };
    void client.query(submittable as never);
  });
}
