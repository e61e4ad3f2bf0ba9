import compress from '@fastify/compress'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/**
 * Bodies smaller than this many bytes are sent as they are. Compressing the 20-task page
 * (3.5 KB) to save 3 KB each tripled the server's CPU a request and cut its requests a
 * second by two thirds (`pnpm bench -- --ablation`, "compressing every body", against
 * the same server with a browser's Accept-Encoding): the page is served from memory in
 * less time than it takes to compress.
 */
export const COMPRESSION_THRESHOLD = 8 * 1024

/**
 * Bodies in memory up to this many bytes are compressed in one call, not through a zlib
 * stream of their own: on 2 cores an 18 KB page was compressed with brotli 3 to 5 times
 * faster so (@fastify/compress's default is 8 KiB there; a larger body streams).
 */
const SYNC_THRESHOLD = 64 * 1024

/**
 * What is worth compressing: text and JSON, NDJSON listings among them, but never a
 * text/event-stream, whose compressor would hold events back until it had enough bytes.
 */
const COMPRESSIBLE =
  /^text\/(?!event-stream)|[+/]json(?:;|$)|^application\/x-ndjson(?:;|$)|[+/]xml(?:;|$)|^application\/javascript(?:;|$)/

/** What a test may change: the smallest body compressed. */
export interface CompressionOptions {
  readonly threshold?: number
}

/**
 * Responses compressed as the client accepts (`Accept-Encoding`: br, else gzip), with
 * `Vary: Accept-Encoding`: listings (JSON and NDJSON, streamed or not), the API
 * description and the docs page's files. Registered before the routes it is to cover.
 * Request bodies are never inflated.
 */
export default fp(
  async function compression(
    app: FastifyInstance,
    { threshold = COMPRESSION_THRESHOLD }: CompressionOptions,
  ) {
    await app.register(compress, {
      global: true,
      globalDecompression: false,
      encodings: ['br', 'gzip'],
      threshold,
      syncThreshold: SYNC_THRESHOLD,
      customTypes: COMPRESSIBLE,
    })
  },
  { name: 'compression' },
)
