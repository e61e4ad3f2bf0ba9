// Paging by cursor while the list changes: for each sort and order and a choice of filters,
// a reader follows `rel="next"` Links page by page while, between its pages, tasks are
// created, changed (priority, due, status, name), moved within and between lists and
// deleted. Every task left unchanged during the paging that the listing held when it began
// comes exactly once, in the order it had; no unchanged task comes that it did not hold.
import type { List, Task } from '@tasklane/contract'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, as, type Caller, createList, expectStatus } from './support/access.js'
import { runs, TEST_TIMEOUT_MS } from './support/properties.js'
import { startServer, type TestServer } from './support/server.js'
import { KEYED_SORTS, listed, nextPath } from './support/sorting.js'

let server: TestServer
let admin: Caller
/** The lists tasks go in: list 1 and two more. */
let listIds: number[]
/** Every live task's list, as the writes answered. */
const live = new Map<number, number>()

const DUES = [
  undefined,
  '2020-01-01',
  '2026-03-01',
  '2026-03-01T12:00:00+14:00',
  '2026-04-15',
  '2026-06-30T23:30:00-11:00',
  '2030-01-01T00:00:00Z',
] as const
const WORDS = ['alpha', 'beta', 'gamma'] as const

const fields = fc.record({
  priority: fc.integer({ min: 0, max: 3 }),
  due: fc.constantFrom(...DUES),
  word: fc.constantFrom(...WORDS),
  list: fc.integer({ min: 0, max: 2 }),
  done: fc.boolean(),
})

/** A write made between two pages; `pick` and `other` choose among the live tasks. */
const action = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), fields }),
  fc.record({ kind: fc.constant('change' as const), pick: fc.nat(), fields }),
  fc.record({
    kind: fc.constant('move' as const),
    pick: fc.nat(),
    other: fc.nat(),
    to: fc.constantFrom('top', 'bottom', 'after', 'before'),
    list: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
)
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never
type Fields = typeof fields extends fc.Arbitrary<infer F> ? F : never

const FILTERS = [
  '',
  'priority=2',
  'status=open',
  'dueFrom=2026-03-01&dueTo=2026-06-30&tz=Pacific/Kiritimati',
  'dueFrom=2026-03-02&tz=Pacific/Pago_Pago',
  'overdue=true',
  'q=alp',
  'q=beta&status=done',
  'LIST',
] as const

function body(f: Fields) {
  return {
    name: `${f.word} task`,
    priority: f.priority,
    listId: listIds[f.list],
    ...(f.due !== undefined && { due: f.due }),
    ...(f.done && { status: 'done' }),
  }
}

const pickOf = (pick: number): number | undefined => {
  const ids = [...live.keys()]
  return ids.length === 0 ? undefined : ids[pick % ids.length]
}

/** Applies `write`; returns the id of the task it touched, if any. */
async function apply(write: Action): Promise<number | undefined> {
  if (write.kind === 'create') {
    const task = expectStatus<Task>(await admin.post('/task', body(write.fields)), 201)
    live.set(task.id, task.listId)
    return task.id
  }
  const id = pickOf(write.pick)
  if (id === undefined) return undefined
  if (write.kind === 'delete') {
    expect((await admin.delete(`/tasks/${id}`)).statusCode).toBe(204)
    live.delete(id)
  } else if (write.kind === 'change') {
    const { listId: _moves, ...patch } = body(write.fields)
    const changes = {
      ...patch,
      due: patch.due ?? null,
      status: write.fields.done ? 'done' : 'open',
    }
    expectStatus<Task>(await admin.patch(`/tasks/${id}`, changes), 200)
  } else {
    const other = pickOf(write.other)
    const listId = write.list === undefined ? undefined : listIds[write.list]
    const into = listId ?? live.get(id)
    const reference = write.to === 'after' || write.to === 'before'
    if (reference && (other === undefined || other === id || live.get(other) !== into)) {
      return undefined
    }
    const place = reference ? { [write.to]: other } : { to: write.to }
    const moved = expectStatus<Task>(
      await admin.post(`/tasks/${id}/move`, { ...place, ...(listId && { listId }) }),
      200,
    )
    live.set(id, moved.listId)
  }
  return id
}

beforeAll(async () => {
  server = await startServer({ settings: { apiToken: ADMIN_TOKEN } })
  admin = as(server, ADMIN_TOKEN)
  const lists: List[] = [await createList(admin, 'Two'), await createList(admin, 'Three')]
  listIds = [1, ...lists.map((list) => list.id)]
  const seed = fc.sample(fields, { seed: 7, numRuns: 24 })
  for (const f of seed) await apply({ kind: 'create', fields: f })
})

afterAll(async () => {
  await server?.close()
})

describe('GET /tasks paged by cursor while tasks change', () => {
  it(
    'returns each task unchanged during the paging once, in its order, in every sort and filter',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...KEYED_SORTS, 'id' as const),
          fc.constantFrom('asc', 'desc'),
          fc.constantFrom(...FILTERS),
          fc.integer({ min: 1, max: 4 }),
          fc.array(action, { minLength: 1, maxLength: 30 }),
          async (sort, order, filter, limit, writes) => {
            const filters = filter === 'LIST' ? `list=${listIds[1]}` : filter
            const query = `sort=${sort}&order=${order}${filters && `&${filters}`}`
            const before = (await listed(admin, `/tasks?${query}`)).tasks.map((task) => task.id)
            const touched = new Set<number>()
            const seen: number[] = []
            let next: string | null = `/tasks?limit=${limit}&${query}`
            let write = 0
            while (next !== null) {
              const response = await admin.get(next)
              expect(response.statusCode).toBe(200)
              seen.push(...(response.json() as Task[]).map((task) => task.id))
              next = nextPath(response.headers.link)
              // A cursor that does not move would page forever.
              expect(seen.length).toBeLessThan(1000)
              // Between pages, a few writes.
              for (let n = 0; n < 2 && write < writes.length; n++, write++) {
                const id = await apply(writes[write] as Action)
                if (id !== undefined) touched.add(id)
              }
            }
            const unchanged = (ids: number[]) => ids.filter((id) => !touched.has(id))
            // Each once, and in the order the listing had them when the paging began.
            expect(unchanged(seen)).toEqual(unchanged(before))
          },
        ),
        runs(40, 20_000),
      )
    },
    TEST_TIMEOUT_MS * 2,
  )
})
