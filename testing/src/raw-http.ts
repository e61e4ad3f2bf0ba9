import { type Agent, type IncomingHttpHeaders, request as nodeRequest } from 'node:http'
import { connect, type Socket } from 'node:net'

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

/** The status line and lower-cased headers of a response head (without the blank line). */
function parseHead(head: string): Pick<RawResponse, 'status' | 'statusLine' | 'headers'> {
  const [statusLine = '', ...lines] = head.split('\r\n')
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':')
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]
    }),
  )
  return { status: Number(statusLine.split(' ')[1]), statusLine, headers }
}

/** Splits one raw HTTP/1.1 response into status, lower-cased headers and body. */
export function parseResponse(text: string, ms = 0): RawResponse {
  const end = text.indexOf('\r\n\r\n')
  const head = parseHead(text.slice(0, end === -1 ? undefined : end))
  let body = end === -1 ? '' : text.slice(end + 4)
  if (head.headers['transfer-encoding'] === 'chunked') body = unchunk(body)
  else if (head.headers['content-length'] !== undefined) {
    body = Buffer.from(body).subarray(0, Number(head.headers['content-length'])).toString('utf8')
  }
  return { ...head, body, ms }
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

/** Bytes a chunked body takes from `start` through its last chunk, or -1 while incomplete. */
function chunkedLength(buffer: Buffer, start: number): number {
  let at = start
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at)
    if (lineEnd === -1) return -1
    const size = Number.parseInt(buffer.subarray(at, lineEnd).toString('latin1'), 16)
    const next = lineEnd + 2 + size + 2
    if (buffer.length < next) return -1
    if (!(size > 0)) return next - start
    at = next
  }
}

/** A keep-alive connection that sends raw bytes and reads every response the server writes. */
export interface RawConnection {
  readonly socket: Socket
  /** Every complete response so far, in order (`ms`: from connecting until it arrived). */
  readonly responses: RawResponse[]
  /** Settles once the connection is open. */
  readonly connected: Promise<void>
  /** Settles once either side has closed the connection. */
  readonly closed: Promise<void>
  /** Writes bytes exactly as given. */
  write(bytes: string | Buffer): void
  /** Resolves once `count` responses have arrived; rejects if the connection closes first. */
  responsesUntil(count: number): Promise<RawResponse[]>
}

/**
 * Opens a connection on which several requests can be sent, as raw bytes, one after
 * another (HTTP/1.1 keep-alive). Bodies are delimited by Content-Length or chunked
 * encoding; responses to HEAD are not supported.
 */
export function openConnection(
  port: number,
  { host = '127.0.0.1' }: { host?: string } = {},
): RawConnection {
  const started = Date.now()
  const socket = connect(port, host)
  const responses: RawResponse[] = []
  const waiters = new Set<() => void>()
  let buffer = Buffer.alloc(0)
  let isClosed = false
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      isClosed = true
      for (const wake of waiters) wake()
      resolve()
    }),
  )
  socket.on('error', () => {}) // A reset is a close like any other here.
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n')
      if (end === -1) break
      const head = parseHead(buffer.subarray(0, end).toString('latin1'))
      const chunked = head.headers['transfer-encoding'] === 'chunked'
      const length = chunked
        ? chunkedLength(buffer, end + 4)
        : Number(head.headers['content-length'] ?? 0)
      if (length === -1 || buffer.length < end + 4 + length) break
      const raw = buffer.subarray(end + 4, end + 4 + length).toString('utf8')
      responses.push({ ...head, body: chunked ? unchunk(raw) : raw, ms: Date.now() - started })
      buffer = buffer.subarray(end + 4 + length)
    }
    for (const wake of waiters) wake()
  })
  const responsesUntil = (count: number) =>
    new Promise<RawResponse[]>((resolve, reject) => {
      const check = () => {
        if (responses.length >= count) resolve(responses)
        else if (isClosed) {
          reject(new Error(`the connection closed after ${responses.length} of ${count} responses`))
        } else return
        waiters.delete(check)
      }
      waiters.add(check)
      check()
    })
  return {
    socket,
    responses,
    connected,
    closed,
    write: (bytes) => void socket.write(bytes),
    responsesUntil,
  }
}

/** A response read by Node's HTTP client. */
export interface HttpResponse {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/**
 * One request through Node's HTTP client with exactly the headers given (Node adds only
 * Host, and not even that to a raw list; no Content-Type, no Content-Length unless given)
 * and the path exactly as written (not normalized as a URL), for requests `fetch` would
 * tidy up.
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
    /** By name, or as a flat list of raw name/value pairs (repeats and order kept). */
    headers?: Record<string, string | number | string[]> | readonly string[]
    body?: string | Buffer
    agent?: Agent
  } = {},
): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const { hostname: bracketed, port } = new URL(url)
    const hostname = bracketed.replace(/^\[(.*)\]$/, '$1') // IPv6 without its brackets
    const path = /^[a-z]+:\/\/[^/?#]*(.*)$/i.exec(url)?.[1] || '/'
    const req = nodeRequest({ hostname, port, path, method, headers, agent }, (res) => {
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
