// A fetch of the unit tests' own, passed in as the client's `fetch` option (no global is
// patched), and the responses it answers with.

/** One request as the fake fetch saw it. */
export interface Recorded {
  url: string
  init: RequestInit | undefined
  headers: Record<string, string>
}

/** A fetch that answers from `respond` (one call after another) and records every request. */
export function recordingFetch(
  respond: (call: number, url: string, init?: RequestInit) => Response | Promise<Response>,
) {
  const calls: Recorded[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input)
    calls.push({ url, init, headers: { ...(init?.headers as Record<string, string>) } })
    return respond(calls.length - 1, url, init)
  }
  return { calls, fetch }
}

/** A JSON response. */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })

/** An Error body of `status`, as a tasklane server sends it. */
export const error = (status: number, headers: Record<string, string> = {}) =>
  json({ code: status, message: `Status ${status}.` }, status, headers)

/** A response whose body comes in these chunks, then ends. */
export function streamed(chunks: string[], contentType: string, status = 200) {
  const encoder = new TextEncoder()
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk))
        controller.close()
      },
    }),
    { status, headers: { 'content-type': contentType } },
  )
}

/** Retries without waiting long, so that the tests stay fast. */
export const fast = { initialDelayMs: 1, maxDelayMs: 5 }

/** The fields every task has besides id, name and tag. */
export const life = {
  listId: 1,
  status: 'open' as const,
  priority: 0,
  position: 'a0',
  version: 1,
  createdAt: '2026-11-25T09:30:00.000Z',
  createdBy: 'local',
  updatedAt: '2026-11-25T09:30:00.000Z',
  updatedBy: 'local',
}
