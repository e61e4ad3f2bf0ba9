import { type Agent, type IncomingHttpHeaders, request as nodeRequest } from 'node:http'
import { connect } from 'node:net'

/** A response as it came off the wire. */
export interface RawResponse {
  readonly status: number
  /** `HTTP/1.1 400 Bad Request` */
  readonly statusLine: string
  /** Lower-cased names; a repeated header keeps its last value. */
  readonly headers: Record<string, string>
  /** The body, de-chunked. */
  readonly body: string
  /** Milliseconds from connecting until the server closed the connection. */
  readonly ms: number
}

function unchunk(text: string): string {
  let out = ''
  let rest = text
  for (;;) {
    const lineEnd = rest.indexOf('\r\n')
    const size = Number.parseInt(rest.slice(0, lineEnd), 16)
    if (!(size > 0)) return out
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size)
    rest = rest.slice(lineEnd + 2 + size + 2)
  }
}

/** Splits one raw HTTP/1.1 response into status, lower-cased headers and body. */
export function parseResponse(text: string, ms = 0): RawResponse {
  const end = text.indexOf('\r\n\r\n')
  const [statusLine = '', ...lines] = text.slice(0, end === -1 ? undefined : end).split('\r\n')
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':')
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]
    }),
  )
  let body = end === -1 ? '' : text.slice(end + 4)
  if (headers['transfer-encoding'] === 'chunked') body = unchunk(body)
  else if (headers['content-length'] !== undefined) {
    body = Buffer.from(body).subarray(0, Number(headers['content-length'])).toString('utf8')
  }
  return { status: Number(statusLine.split(' ')[1]), statusLine, headers, body, ms }
}

/**
 * Writes bytes to a server exactly as given, no header added or fixed (`gapMs` apart when
 * there are several parts), and resolves with the response once the server closes the
 * connection. For requests no HTTP client would send.
 */
export function exchange(
  port: number,
  parts: string | readonly (string | Buffer)[],
  { gapMs = 0, host = '127.0.0.1' }: { gapMs?: number; host?: string } = {},
): Promise<RawResponse> {
  const pieces = typeof parts === 'string' ? [parts] : parts
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const socket = connect(port, host)
    const chunks: Buffer[] = []
    let timer: NodeJS.Timeout | undefined
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', () => {}) // A reset after the response is the server cutting us off.
    socket.on('close', () => {
      clearTimeout(timer)
      const text = Buffer.concat(chunks).toString('utf8')
      if (text === '') reject(new Error('the connection closed without a response'))
      else resolve(parseResponse(text, Date.now() - started))
    })
    let i = 0
    const next = () => {
      if (i >= pieces.length || socket.destroyed) return
      socket.write(pieces[i++] as string | Buffer)
      if (i < pieces.length) timer = setTimeout(next, gapMs)
    }
    socket.once('connect', next)
  })
}

/** A response read by Node's HTTP client. */
export interface HttpResponse {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/**
 * One request through Node's HTTP client with exactly the headers given (Node adds only
 * Host; no Content-Type, no Content-Length unless given), for requests `fetch` would tidy up.
 */
export function httpRequest(
  url: string,
  {
    method = 'GET',
    headers = {},
    body,
    agent,
  }: {
    method?: string
    headers?: Record<string, string | number | string[]>
    body?: string | Buffer
    agent?: Agent
  } = {},
): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const req = nodeRequest(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}
