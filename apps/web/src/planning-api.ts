import { ApiError, type Task, type TaskStatus } from '@tasklane/client'

/** One change of a task, as GET /tasks/{id}/history answers it (the contract's HistoryEntry). */
export interface HistoryEntry {
  readonly seq: number
  readonly at: string
  readonly actor: string
  readonly type: 'created' | 'updated' | 'moved' | 'deleted'
  readonly changes: Readonly<Record<string, { readonly from: unknown; readonly to: unknown }>>
}

/** Where a task goes in its list's manual order: just before or just after another task. */
export type Place = { readonly before: number } | { readonly after: number }

/** What a search looks in: the words, and the view's list, tag and status. */
export interface SearchQuery {
  readonly q: string
  readonly list: number | undefined
  readonly tag: string | undefined
  readonly status: TaskStatus | undefined
}

/** The most results a search shows. */
export const SEARCH_LIMIT = 100

/**
 * The planning calls the page makes beside the client's methods: a move in the manual order
 * (POST /tasks/{id}/move), a task's history, and a search (GET /tasks?q=…&sort=position).
 * Same origin, with the tab's token; a non-2xx is an ApiError as the client throws it, so
 * that the page tells it as it tells any other.
 */
export class PlanningApi {
  constructor(readonly token: () => string | undefined) {}

  /** Moves `task` to `place`, if it is still at the version shown (If-Match). */
  move(task: Task, place: Place): Promise<Task> {
    return this.#json<Task>('POST', `/tasks/${task.id}/move`, {
      body: JSON.stringify(place),
      headers: { 'content-type': 'application/json', 'if-match': `"${task.version}"` },
    })
  }

  /** The task's changes, newest first (the first page of them). */
  history(id: number): Promise<HistoryEntry[]> {
    return this.#json<HistoryEntry[]>('GET', `/tasks/${id}/history?limit=50`)
  }

  /** The tasks whose name or notes hold words starting with the query's words, in the manual order. */
  search({ q, list, tag, status }: SearchQuery): Promise<Task[]> {
    const query = new URLSearchParams({ q, sort: 'position', limit: String(SEARCH_LIMIT) })
    if (list !== undefined) query.set('list', String(list))
    if (tag !== undefined) query.set('tag', tag)
    if (status !== undefined) query.set('status', status)
    return this.#json<Task[]>('GET', `/tasks?${query}`)
  }

  async #json<T>(method: string, path: string, init: RequestInit = {}): Promise<T> {
    const token = this.token()
    const headers = new Headers(init.headers)
    if (token !== undefined) headers.set('authorization', `Bearer ${token}`)
    const url = `${location.origin}${path}`
    const response = await fetch(url, { ...init, method, headers })
    if (response.ok) return (await response.json()) as T
    const text = await response.text()
    let body: { code: number; message: string } | string = text
    try {
      body = JSON.parse(text) as { code: number; message: string }
    } catch {}
    const message =
      typeof body === 'object' ? body.message : `${method} ${path}: ${response.status}`
    const code = typeof body === 'object' ? body.code : response.status
    throw new ApiError(response.status, code, message, method, url, body, response)
  }
}
