/**
 * The server's plugins whose hooks run on every request, which the ablation leaves out one
 * at a time and all together to price each: the X-Request-Id header (and its UUID: Fastify's
 * counter then names requests), the Prometheus metrics (`/metrics` gone; the writer's and
 * the feed's reports go nowhere), the request log line, the security headers, the Host
 * check, the overload guard, the framing checks, the per-client stream limit, and strict
 * parameters (Fastify's own type coercion then converts query, path and header integers, as
 * in a bare Fastify app). Each name is one of the server's APP_PLUGINS.
 */
export const ABLATED_PLUGINS = [
  'pipelining',
  'requestId',
  'metrics',
  'requestLog',
  'securityHeaders',
  'hostHeader',
  'overload',
  'framing',
  'streamsPerClient',
  'strictParams',
] as const
export type AblatedPlugin = (typeof ABLATED_PLUGINS)[number]
