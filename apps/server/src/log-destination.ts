import type { DestinationStream } from 'pino'
import type { SettingValues } from './settings/schema.js'

/** The parts of a request's line (plugins/request-log.ts) that its readable form shows first. */
const REQUEST_FIELDS = 'method,url,status,ms,aborted'

/** A request's line as words, `GET /tasks?limit=20 200 1.2 ms`; any other line's message. */
function message(line: Record<string, unknown>, messageKey: string): string {
  if (line[messageKey] !== 'request') return String(line[messageKey] ?? '')
  const left = line.aborted === true ? ' (the client left first)' : ''
  return `${line.method} ${line.url} ${line.status}${left} ${line.ms} ms`
}

/**
 * Where the log goes: standard output, in the LOG_FORMAT asked for (`auto`: readable when
 * it is a terminal, JSON otherwise). Written asynchronously either way: written
 * synchronously, each request's line blocked the event loop whenever the disk was busy,
 * as it is during every durable commit's fsync when the log shares the disk. What is
 * still buffered when the process exits is flushed then; a `kill -9` loses it.
 */
export async function logDestination(
  format: SettingValues['logFormat'],
  stdout: { readonly isTTY?: boolean } = process.stdout,
): Promise<DestinationStream> {
  const { destination } = await import('pino')
  const out = destination({ dest: 1, sync: false })
  if (format === 'json' || (format === 'auto' && stdout.isTTY !== true)) return out
  // Each line is made readable as it is logged, then written like a JSON line: no
  // stream stage between them that could still hold lines when the process exits.
  const { prettyFactory } = await import('pino-pretty')
  const pretty = prettyFactory({
    colorize: stdout.isTTY === true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: `pid,hostname,${REQUEST_FIELDS}`,
    messageFormat: message,
  })
  return { write: (line: string) => void out.write(pretty(line)) }
}
