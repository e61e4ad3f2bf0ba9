// GET /tasks filters: priority, dueFrom/dueTo in a time zone (days as they are, moments on
// their day in tz: Pacific/Kiritimati at +14:00, Pacific/Pago_Pago at −11:00, Europe/Paris
// and America/New_York across their changes of daylight saving time), overdue, q; each
// combined with the others, with the sorts and with paging; an unknown zone is a 400.
import type { Task } from '@tasklane/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { searchText, searchWords } from '../src/domain/search-text.js'
import { ADMIN_TOKEN, as, type Caller, expectErrorBody, expectStatus } from './support/access.js'
import { startServer, type TestServer } from './support/server.js'
import { idsOf, KEYED_SORTS, listed, pagesFrom, sortedAs } from './support/sorting.js'

let server: TestServer
let admin: Caller
let all: Task[]

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR

/** The date it is at `ms` in `timeZone`, as the platform's Intl says: `YYYY-MM-DD`. */
function dateIn(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(ms)
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** Dues around zone edges and changes of daylight saving time, and around now. */
function dues(now: number): string[] {
  return [
    '2026-03-01',
    '2026-03-02',
    // 2026-03-02 01:00 in Kiritimati (+14), 2026-03-01 in UTC and in Pago Pago.
    '2026-03-01T11:00:00Z',
    // 2026-02-28 23:00 in Pago Pago (−11), 2026-03-01 in UTC and in Kiritimati.
    '2026-03-01T10:00:00Z',
    // Paris springs forward on 2026-03-29 at 01:00 UTC: 00:30 CET on the 29th.
    '2026-03-28T23:30:00Z',
    // 23:30 CEST on the 29th, and 00:30 CEST on the 30th (a fixed +01:00 says the 29th).
    '2026-03-29T21:30:00Z',
    '2026-03-29T22:30:00Z',
    // New York falls back on 2026-11-01 at 06:00 UTC: 23:30 EDT on 31 October, then
    // 23:30 EST on 1 November (a fixed −04:00 says 2 November 00:30).
    '2026-11-01T03:30:00Z',
    '2026-11-02T04:30:00Z',
    '2026-11-01T12:00:00-05:00',
    // Around now: yesterday, today and tomorrow in UTC, an hour ago and an hour ahead.
    utcDay(now - DAY),
    utcDay(now),
    utcDay(now + DAY),
    new Date(now - HOUR).toISOString(),
    new Date(now + HOUR).toISOString(),
  ]
}

const NAMES = [
  ['Café au lait', 'Crème brûlée for the PARTY'],
  ['Release notes', 'e-mail the team; don’t forget'],
  ['東京タワー', undefined],
  ['naïve Ångström', 'release-candidate'],
] as const

beforeAll(async () => {
  server = await startServer({ settings: { apiToken: ADMIN_TOKEN } })
  admin = as(server, ADMIN_TOKEN)
  const now = Date.now()
  const list = dues(now)
  for (let i = 0; i < list.length + 3; i++) {
    const [name, notes] = NAMES[i % NAMES.length] as readonly [string, string | undefined]
    const due = list[i]
    const body = {
      name: `${name} ${i}`,
      priority: i % 4,
      ...(notes && { notes }),
      ...(due && { due }),
      ...(i % 5 === 4 && { status: 'done' }),
    }
    expectStatus<Task>(await admin.post('/task', body), 201)
  }
  all = (await listed(admin, '/tasks')).tasks
})

afterAll(async () => {
  await server?.close()
})

/** The instant a moment is, or undefined for a day or no due. */
const momentOf = (task: Task) =>
  task.due === undefined || task.due.length === 10 ? undefined : Date.parse(task.due)

/** The day a task is due on in `timeZone`: a day as it is, a moment's date there. */
function dueDayIn(task: Task, timeZone: string): string | undefined {
  const moment = momentOf(task)
  return moment === undefined ? task.due : dateIn(moment, timeZone)
}

function dueBetween(from: string | undefined, to: string | undefined, timeZone: string) {
  return all.filter((task) => {
    const day = dueDayIn(task, timeZone)
    return (
      day !== undefined && (from === undefined || day >= from) && (to === undefined || day <= to)
    )
  })
}

function overdueAt(now: number, timeZone: string) {
  const today = dateIn(now, timeZone)
  return all.filter((task) => {
    if (task.status !== 'open' || task.due === undefined) return false
    const moment = momentOf(task)
    return moment === undefined ? task.due < today : moment < now
  })
}

function searched(q: string) {
  const words = searchWords(q)
  return all.filter(
    (task) =>
      words.length > 0 &&
      words.every((word) => searchText(task.name, task.notes ?? null).includes(` ${word}`)),
  )
}

const ZONES = ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/Paris', 'America/New_York']

describe('GET /tasks filters', () => {
  it.each([0, 1, 2, 3])('priority=%i lists the tasks of that priority', async (priority) => {
    const { tasks } = await listed(admin, `/tasks?priority=${priority}`)
    expect(tasks).toEqual(all.filter((task) => task.priority === priority))
    expect(tasks.length).toBeGreaterThan(0)
  })

  it.each([
    ['2026-03-01', '2026-03-01'],
    ['2026-03-02', '2026-03-02'],
    ['2026-02-28', '2026-02-28'],
    ['2026-03-29', '2026-03-29'],
    ['2026-03-30', '2026-03-30'],
    ['2026-10-31', '2026-11-01'],
    ['2026-11-02', undefined],
    [undefined, '2026-03-01'],
  ] as const)(
    'dueFrom=%s, dueTo=%s counts each moment on its day in each zone',
    async (from, to) => {
      for (const zone of ZONES) {
        const query = [
          from && `dueFrom=${from}`,
          to && `dueTo=${to}`,
          zone !== 'UTC' && `tz=${encodeURIComponent(zone)}`,
        ]
          .filter(Boolean)
          .join('&')
        const { tasks } = await listed(admin, `/tasks?${query}`)
        expect({ zone, ids: idsOf(tasks) }).toEqual({
          zone,
          ids: idsOf(dueBetween(from, to, zone)),
        })
      }
    },
  )

  it('counts a moment on its own day at +14:00, at −11:00 and across daylight saving time', async () => {
    const on = async (day: string, zone: string) =>
      (await listed(admin, `/tasks?dueFrom=${day}&dueTo=${day}&tz=${zone}`)).tasks.map(
        (task) => task.due,
      )
    expect(await on('2026-03-02', 'Pacific/Kiritimati')).toContain('2026-03-01T11:00:00Z')
    expect(await on('2026-03-01', 'Pacific/Kiritimati')).not.toContain('2026-03-01T11:00:00Z')
    expect(await on('2026-02-28', 'Pacific/Pago_Pago')).toContain('2026-03-01T10:00:00Z')
    expect(await on('2026-03-29', 'Europe/Paris')).toEqual(
      expect.arrayContaining(['2026-03-28T23:30:00Z', '2026-03-29T21:30:00Z']),
    )
    expect(await on('2026-03-30', 'Europe/Paris')).toContain('2026-03-29T22:30:00Z')
    expect(await on('2026-10-31', 'America/New_York')).toContain('2026-11-01T03:30:00Z')
    expect(await on('2026-11-01', 'America/New_York')).toEqual(
      expect.arrayContaining(['2026-11-02T04:30:00Z', '2026-11-01T12:00:00-05:00']),
    )
  })

  it.each(ZONES)('overdue=true in %s lists open tasks due before now', async (zone) => {
    const { tasks } = await listed(admin, `/tasks?overdue=true&tz=${encodeURIComponent(zone)}`)
    expect(idsOf(tasks)).toEqual(idsOf(overdueAt(Date.now(), zone)))
    expect(tasks.length).toBeGreaterThan(0)
    expect(tasks.every((task) => task.status === 'open')).toBe(true)
  })

  it('keeps a day due until it ends in tz: today is not overdue, yesterday is', async () => {
    const now = Date.now()
    const { tasks } = await listed(admin, '/tasks?overdue=true')
    const days = tasks.filter((task) => task.due?.length === 10).map((task) => task.due)
    expect(days).not.toContain(utcDay(now))
    const yesterday = all.find((task) => task.due === utcDay(now - DAY))
    if (yesterday?.status === 'open') expect(days).toContain(utcDay(now - DAY))
  })

  it('overdue=false filters nothing', async () => {
    expect((await listed(admin, '/tasks?overdue=false')).tasks).toEqual(all)
  })

  it.each([
    'cafe',
    'CAFÉ',
    'creme bru',
    'release',
    'rel not',
    'e mail',
    'don',
    'ang naive',
    '東',
    'タ',
    'party crème',
    'lait 0',
    'elease',
    '!!!',
  ])('q=%s matches the start of a word of name or notes, case and accents ignored', async (q) => {
    const { tasks } = await listed(admin, `/tasks?q=${encodeURIComponent(q)}`)
    expect(idsOf(tasks)).toEqual(idsOf(searched(q)))
  })

  it('finds by prefix and not inside a word', async () => {
    expect((await listed(admin, '/tasks?q=Bru')).tasks.length).toBeGreaterThan(0)
    expect((await listed(admin, '/tasks?q=rulee')).tasks).toEqual([])
    expect((await listed(admin, '/tasks?q=!!!')).tasks).toEqual([])
  })

  it('combines every filter with every sort and pages through them', async () => {
    const now = Date.now()
    const zone = 'Pacific/Kiritimati'
    const query = `dueFrom=2026-01-01&dueTo=2027-12-31&tz=${zone}&q=e`
    const expected = dueBetween('2026-01-01', '2027-12-31', zone).filter((task) =>
      searched('e').includes(task),
    )
    expect(expected.length).toBeGreaterThan(3)
    for (const sort of [...KEYED_SORTS, 'id'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const pages = await pagesFrom(admin, `/tasks?limit=1&sort=${sort}&order=${order}&${query}`)
        expect({ sort, order, ids: idsOf(pages.flat()) }).toEqual({
          sort,
          order,
          ids: idsOf(sortedAs(expected, sort, order)),
        })
      }
    }
    for (const priority of [0, 1, 2, 3]) {
      const pages = await pagesFrom(
        admin,
        `/tasks?limit=1&sort=due&overdue=true&priority=${priority}`,
      )
      const overdue = overdueAt(now, 'UTC').filter((task) => task.priority === priority)
      expect(idsOf(pages.flat())).toEqual(idsOf(sortedAs(overdue, 'due', 'asc')))
    }
  })

  it('applies the filters to NDJSON', async () => {
    const response = await admin.get('/tasks?q=release&priority=1', {
      accept: 'application/x-ndjson',
    })
    const ids = response.body
      .split('\n')
      .slice(0, -1)
      .map((line) => (JSON.parse(line) as Task).id)
    expect(ids).toEqual(idsOf(searched('release').filter((task) => task.priority === 1)))
  })

  it.each(['Mars/Olympus', 'Europe/Pariss', 'utc+1', 'A'])(
    'returns 400 naming tz for tz=%s',
    async (tz) => {
      expectErrorBody(
        await admin.get(`/tasks?dueFrom=2026-01-01&tz=${encodeURIComponent(tz)}`),
        400,
        'Query parameter "tz" must be an IANA time zone name such as Europe/Paris.',
      )
    },
  )

  it.each([
    ['dueFrom=2026-02-30', 'dueFrom'],
    ['dueTo=tomorrow', 'dueTo'],
    ['priority=4', 'priority'],
    ['overdue=yes', 'overdue'],
    ['q=', 'q'],
  ])('returns 400 for %s naming %s', async (query, name) => {
    const response = await admin.get(`/tasks?${query}`)
    expect(response.statusCode).toBe(400)
    expect(response.json().message).toMatch(new RegExp(`^Query parameter "${name}" `))
  })
})
