// The check of live copies under changing rights: while an admin adds and removes members,
// changes their roles and creates, changes, moves and deletes tasks in random order, each
// principal's LiveTasks follows the resets and view changes its feed sends, never shows a
// task twice, and once caught up equals that principal's own fresh listing. Run on SQLite
// (live-tasks-access.e2e.test.ts) and on two PostgreSQL instances (its .slow. twin).
import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { expect } from 'vitest'
import { createClient, type List, type Task } from '../src/index.js'
import { LiveTasks } from '../src/live.js'

/** The API_TOKEN of the servers the check runs against. */
export const ADMIN = `admin-${randomBytes(16).toString('hex')}`
const PEOPLE = ['bob', 'carol'] as const
export type Person = (typeof PEOPLE)[number]

/** One change the admin makes; lists are 0 and 1, `pick` chooses among the tasks made. */
type Step =
  | { kind: 'member'; who: Person; list: 0 | 1; role: 'viewer' | 'editor' | null }
  | { kind: 'create'; list: 0 | 1 }
  | { kind: 'rename'; pick: number }
  | { kind: 'move'; pick: number; list: 0 | 1 }
  | { kind: 'delete'; pick: number }

const list = fc.constantFrom<0 | 1>(0, 1)
/** One random change of the admin's. */
export const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('member' as const),
      who: fc.constantFrom(...PEOPLE),
      list,
      role: fc.constantFrom('viewer' as const, 'editor' as const, null),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('create' as const), list }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rename' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), list }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
)

/**
 * Where a check runs: the admin writes to `writeUrl`, each person's live copy and fresh
 * listing read `readUrl` (the same server, or another instance on the same database).
 */
export interface AccessSetup {
  readonly writeUrl: string
  readonly readUrl: string
  readonly tokens: ReadonlyMap<Person, string>
}

/** One request to `base` as `token`; resolves with its status, parsed body and Tasklane-Seq. */
async function send(base: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return {
    status: response.status,
    body: (text === '' ? undefined : JSON.parse(text)) as unknown,
    seq: Number(response.headers.get('tasklane-seq')),
  }
}

export async function expectOk<T>(request: ReturnType<typeof send>): Promise<T> {
  const { status, body } = await request
  if (status >= 300) throw new Error(`answered ${status}: ${JSON.stringify(body)}`)
  return body as T
}

/** Resolves once `done()` holds, checking every 20 ms; rejects naming `what` after 30 s. */
async function until(done: () => boolean, what: () => string): Promise<void> {
  for (const start = Date.now(); !done(); ) {
    if (Date.now() - start > 30_000) throw new Error(`${what()} did not happen within 30 s`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Tokens for each person, made by the admin at `url` (principal: the person's name). */
export async function makeTokens(url: string): Promise<Map<Person, string>> {
  const tokens = new Map<Person, string>()
  for (const person of PEOPLE) {
    const made = await expectOk<{ token: string }>(
      send(url, ADMIN, 'POST', '/tokens', { name: person, principal: person }),
    )
    tokens.set(person, made.token)
  }
  return tokens
}

/** Runs one scenario on lists of its own: two that change, and one each person always reads. */
export async function check(setup: AccessSetup, steps: readonly Step[]): Promise<void> {
  const { writeUrl, readUrl, tokens } = setup
  const create = (name: string) => expectOk<List>(send(writeUrl, ADMIN, 'POST', '/list', { name }))
  const lists = [await create('zero'), await create('one')]
  const beacon = await create('beacon')
  for (const person of PEOPLE) {
    await expectOk(
      send(writeUrl, ADMIN, 'PUT', `/lists/${beacon.id}/members/${person}`, { role: 'viewer' }),
    )
  }
  const lives = PEOPLE.map((person) => {
    const client = createClient({
      baseUrl: readUrl,
      token: tokens.get(person) as string,
      retry: { initialDelayMs: 20, maxDelayMs: 200 },
    })
    const live = new LiveTasks(client, {})
    const problems: string[] = []
    live.subscribe(() => {
      const ids = live.tasks.map((task) => task.id)
      if (new Set(ids).size !== ids.length) problems.push(`${person}: a duplicate in ${ids}`)
      const sorted = [...ids].sort((a, b) => a - b)
      if (ids.join() !== sorted.join()) problems.push(`${person}: out of order: ${ids}`)
    })
    return { person, live, problems }
  })
  try {
    await until(
      () => lives.every(({ live }) => live.caughtUp),
      () => 'every live copy caught up',
    )
    const tasks: number[] = []
    for (const st of steps) {
      const listId = 'list' in st ? (lists[st.list] as List).id : 0
      const picked =
        tasks.length === 0 ? undefined : tasks[('pick' in st ? st.pick : 0) % tasks.length]
      if (st.kind === 'member') {
        const path = `/lists/${listId}/members/${st.who}`
        if (st.role === null) await send(writeUrl, ADMIN, 'DELETE', path)
        else await expectOk(send(writeUrl, ADMIN, 'PUT', path, { role: st.role }))
      } else if (st.kind === 'create' || picked === undefined) {
        const into = st.kind === 'create' ? listId : (lists[0] as List).id
        tasks.push(
          (
            await expectOk<Task>(
              send(writeUrl, ADMIN, 'POST', '/task', { name: 'new', listId: into }),
            )
          ).id,
        )
      } else if (st.kind === 'rename') {
        await send(writeUrl, ADMIN, 'PATCH', `/tasks/${picked}`, {
          name: `renamed ${randomBytes(2).toString('hex')}`,
        })
      } else if (st.kind === 'move') {
        await send(writeUrl, ADMIN, 'PATCH', `/tasks/${picked}`, { listId })
      } else {
        await send(writeUrl, ADMIN, 'DELETE', `/tasks/${picked}`)
      }
    }
    // A last task in the list each person always reads: once a copy has it, it has every
    // change before it (the feed sends changes in seq order).
    const marker = await expectOk<Task>(
      send(writeUrl, ADMIN, 'POST', '/task', { name: 'marker', listId: beacon.id }),
    )
    for (const { person, live, problems } of lives) {
      await until(
        () => live.caughtUp && live.tasks.some((task) => task.id === marker.id),
        () =>
          `${person}'s copy caught up with the marker (at seq ${live.seq}, error ${live.error})`,
      )
      const fresh = await expectOk<Task[]>(
        send(readUrl, tokens.get(person) as string, 'GET', '/tasks'),
      )
      expect(problems).toEqual([])
      expect(live.tasks, `${person}'s copy`).toEqual(fresh)
    }
  } finally {
    for (const { live } of lives) live.close()
    for (const gone of [...lists, beacon])
      await send(writeUrl, ADMIN, 'DELETE', `/lists/${gone.id}`)
  }
}
