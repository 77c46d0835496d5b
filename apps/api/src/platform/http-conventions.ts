import fastifyCompress from '@fastify/compress';
import fastifyCors from '@fastify/cors';
import fastifyEtag from '@fastify/etag';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import xxhash from 'xxhash-wasm';

export interface HttpConventions {
  /** '*': any origin may read (GET/HEAD); a list: those origins may use every method. */
  corsOrigins: '*' | string[];
  /** Responses at least this many bytes long are compressed. */
  compressThresholdBytes: number;
}

/** Request headers a browser may send cross-origin (beyond the CORS-safelisted ones). */
const CORS_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-None-Match', 'X-Request-Id', 'traceparent'];
/** Response headers a browser script may read. */
const CORS_EXPOSED_HEADERS = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Location', 'ETag', 'Idempotent-Replayed', 'WWW-Authenticate'];

/**
 * CORS (@fastify/cors). Register before the authentication hook: its onRequest hook answers a
 * preflight (which never carries the key) before the key is asked for. Bearer keys, not cookies:
 * no credentials mode, so `*` is a safe default for reading.
 */
export async function registerCors(app: FastifyInstance, conventions: HttpConventions): Promise<void> {
  const any = conventions.corsOrigins === '*';
  await app.register(fastifyCors, {
    origin: conventions.corsOrigins,
    methods: any ? ['GET', 'HEAD'] : ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_REQUEST_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
    // An OPTIONS without the preflight headers is answered like one, not with the plugin's text/plain 400.
    strictPreflight: false,
  });
}

/**
 * Response compression (@fastify/compress): br or gzip, as the client's Accept-Encoding prefers,
 * for bodies of at least the threshold. Request bodies are not decompressed (64 KiB JSON bodies
 * need none, and inflating them is a way around the body limit).
 */
export async function registerCompression(app: FastifyInstance, conventions: HttpConventions): Promise<void> {
  await app.register(fastifyCompress, { threshold: conventions.compressThresholdBytes, encodings: ['br', 'gzip'], globalDecompression: false });
}

/**
 * Strong ETags and 304 on a matching If-None-Match (@fastify/etag), for the routes `addRoutes`
 * adds to the scope it is given: GET resources and pages. The hash is of the uncompressed body
 * (the plugin's hook runs before compression's route hook), so a client gets the same ETag
 * whatever encoding it accepts. XXH64 of the body's UTF-8 bytes, not the plugin's sha1: a
 * validator needs no cryptographic hash, and sha1 of a 178 kB insider page took a tenth of that
 * request's CPU (bench/scale); XXH64 takes a third of sha1's time.
 *
 * The serialized body is encoded to UTF-8 once, here, and those bytes are hashed and sent: a
 * string would be encoded again by the hash, measured again for Content-Length and encoded a
 * third time by the socket write.
 */
export async function registerConditionalGets(
  app: FastifyInstance,
  addRoutes: (scope: FastifyInstance) => void,
  /** Called for every 304 the plugin answers, before it is sent (headers may still change). */
  onNotModified: (request: FastifyRequest, reply: FastifyReply) => void,
): Promise<void> {
  const xxh = await xxhash();
  const utf8 = <T>(payload: string | T): Buffer | T => (typeof payload === 'string' ? Buffer.from(payload) : payload);
  // The hook below hands the plugin bytes; its typings still say string.
  const hashFn = (payload: string | Buffer): string => xxh.h64Raw(utf8(payload)).toString(16).padStart(16, '0');
  await app.register(async (scope) => {
    scope.addHook('onSend', (_request, _reply, payload, done) => done(null, utf8(payload)));
    await scope.register(fastifyEtag, { hashFn });
    // Added after the plugin, so it runs after the plugin's onSend hook turned the answer into a 304.
    scope.addHook('onSend', (request, reply, payload, done) => {
      if (reply.statusCode === 304) onNotModified(request, reply);
      done(null, payload);
    });
    addRoutes(scope);
  });
}
