// q= on SQLite (FTS5 trigram table) and on PostgreSQL (pg_trgm) side by side: the same
// corpus of accents, CJK, emoji and punctuation created on both, every query answered with
// the same ids on both, and those ids the ones search's rule (domain/search-text.ts) names.
import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { searchText, searchWords } from '../src/domain/search-text.js'
import { ADMIN_TOKEN, as, type Caller, expectStatus } from './support/access.js'
import { startServer, type TestServer } from './support/server.js'
import { idsOf, listed, pagesFrom } from './support/sorting.js'
import { createTestDatabase } from './support/test-database.js'

const CORPUS: [string, string?][] = [
  ['Café crème', 'Crème brûlée au caramel'],
  ['CAFE NOIR', 'naïve façade'],
  ['Ångström units', 'ÅNGSTRÖM in CAPS'],
  ['İstanbul trip', 'Straße, STRASSE and straße'],
  ['東京タワー', '日本語のテキストを検索する'],
  ['中文搜索测试', '繁體中文'],
  ['한국어 메모', 'ハングルと한글'],
  ['🎉 party planning', '👍🏽 thumbs up 🚀launch'],
  ['e-mail the team', 'don’t forget: C++, foo_bar & "quoted" (parenthesised)'],
  ['x2y 2026-03-01', 'v1.2.3 release; 100% done'],
  ['ΟΔΟΣ Ελληνικά', 'σοφία Σοφία'],
  ['Ｆｕｌｌｗｉｄｔｈ ｔｅｘｔ', 'ﬁle ligature'],
  ['tab\tseparated\tname', 'line\nbreaks\nin notes'],
  ['Zoë Saldaña', 'Renée Zellweger'],
  ['...', '!!!'],
]

const QUERIES = [
  'cafe',
  'CAFÉ',
  'creme brulee',
  'cara',
  'naive facade',
  'angstrom',
  'istanbul',
  'strasse',
  'straße',
  '東京',
  '京',
  'タ',
  '日本',
  '検索',
  '中文',
  '文',
  '繁',
  '한국어',
  '한',
  'ハ',
  'party',
  '🎉',
  '🎉 party',
  'launch',
  'thumbs',
  'e mail',
  'mail',
  'don',
  't',
  'c',
  'foo',
  'bar',
  'quot',
  'paren',
  'x2',
  '2026 03',
  'v1 2',
  '100',
  'οδος',
  'σοφ',
  'ελλ',
  'fullwidth',
  'file',
  'separated name',
  'breaks in',
  'zoe saldana',
  'renee',
  'e',
  'a b c',
  '...',
  'missing',
  'ream',
  'ankara',
  'izmir',
  'trip',
]

const servers: TestServer[] = []
const callers: Caller[] = []

beforeAll(async () => {
  for (const kind of ['sqlite', 'postgres'] as const) {
    const testDatabase = await createTestDatabase({ kind })
    const server = await startServer({ testDatabase, settings: { apiToken: ADMIN_TOKEN } })
    servers.push(server)
    callers.push(as(server, ADMIN_TOKEN))
  }
  for (const caller of callers) {
    for (const [name, notes] of CORPUS) {
      expectStatus<Task>(await caller.post('/task', { name, ...(notes && { notes }) }), 201)
    }
    // A change of name and notes changes what search finds.
    expectStatus(await caller.patch('/tasks/1', { name: 'Dream café', notes: null }), 200)
    // A deleted task is found no more.
    expect((await caller.delete('/tasks/2')).statusCode).toBe(204)
    // A change that leaves name and notes alone keeps the task found.
    expectStatus(await caller.patch('/tasks/3', { priority: 2 }), 200)
    // Changes sent together, likely one batch: whichever name lands last is the one found.
    const together = await Promise.all([
      caller.patch('/tasks/4', { name: 'Ankara trip' }),
      caller.patch('/tasks/4', { name: 'Izmir trip' }),
      caller.post('/task', { name: 'Ankara again' }),
      caller.delete('/tasks/5'),
    ])
    expect(together.map((response) => response.statusCode)).toEqual([200, 200, 201, 204])
  }
}, 60_000)

afterAll(async () => {
  for (const server of servers) {
    await server.close()
    await server.testDatabase.drop()
  }
})

/** The tasks search's rule finds for `q`: each word the start of a word of name or notes. */
function expected(tasks: readonly Task[], q: string): number[] {
  const words = searchWords(q)
  return idsOf(
    tasks.filter(
      (task) =>
        words.length > 0 &&
        words.every((word) => searchText(task.name, task.notes ?? null).includes(` ${word}`)),
    ),
  )
}

describe('GET /tasks?q= on SQLite and PostgreSQL', () => {
  it.each(QUERIES)('finds the same tasks for q=%s on both', async (q) => {
    const path = `/tasks?q=${encodeURIComponent(q)}`
    const [sqlite, postgres] = await Promise.all(callers.map((caller) => listed(caller, path)))
    const all = (await listed(callers[0] as Caller, '/tasks')).tasks
    expect(idsOf(sqlite?.tasks ?? [])).toEqual(idsOf(postgres?.tasks ?? []))
    expect(idsOf(sqlite?.tasks ?? [])).toEqual(expected(all, q))
  })

  it('finds something for most queries, so the comparison means something', async () => {
    let found = 0
    for (const q of QUERIES) {
      const { tasks } = await listed(callers[1] as Caller, `/tasks?q=${encodeURIComponent(q)}`)
      if (tasks.length > 0) found++
    }
    expect(found).toBeGreaterThan(QUERIES.length * 0.7)
  })

  it('pages a search in each sort the same on both', async () => {
    for (const sort of ['id', 'updated', 'position', 'priority', 'due'] as const) {
      const path = `/tasks?q=e&limit=2&sort=${sort}&order=desc`
      const [sqlite, postgres] = await Promise.all(callers.map((caller) => pagesFrom(caller, path)))
      expect(idsOf(sqlite?.flat() ?? [])).toEqual(idsOf(postgres?.flat() ?? []))
    }
  })
})
