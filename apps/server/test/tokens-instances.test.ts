// Two instances on one database: a revocation, or a member's removal, answered by one is
// seen by the very next request to the other (no cache serves the old rights).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ADMIN_TOKEN,
  addMember,
  as,
  createList,
  createTaskIn,
  expectErrorBody,
  expectStatus,
  makeToken,
} from './support/access.js'
import { startServer, type TestServer } from './support/server.js'

let first: TestServer
let second: TestServer

beforeAll(async () => {
  first = await startServer({ settings: { apiToken: ADMIN_TOKEN } })
  second = await startServer({
    settings: { apiToken: ADMIN_TOKEN },
    testDatabase: first.testDatabase,
  })
})

afterAll(async () => {
  await second?.close()
  await first?.close()
})

describe('two instances on one database', () => {
  it('refuse a token revoked on the other at the very next request', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const made = await makeToken(first, { principal: `revoked-${attempt}` })
      // The second instance has the token in memory, and its rights.
      for (let i = 0; i < 3; i++) expectStatus(await as(second, made.token).get('/lists'), 200)
      expect((await as(first, made.token).delete(`/tokens/${made.id}`)).statusCode).toBe(204)
      const response = await as(second, made.token).get('/lists')
      expectErrorBody(response, 401, 'The bearer token in the Authorization header is not valid.')
      expect(response.headers['www-authenticate']).toBe(
        'Bearer realm="tasklane", error="invalid_token"',
      )
    }
  })

  it('take a list away from a member removed on the other at its very next request', async () => {
    const alice = as(first, (await makeToken(first, { principal: 'alice' })).token)
    const bobToken = (await makeToken(first, { principal: 'bob' })).token
    const [bobHere, bobThere] = [as(first, bobToken), as(second, bobToken)]
    for (let attempt = 0; attempt < 5; attempt++) {
      const list = await createList(alice, `Shared ${attempt}`)
      await addMember(alice, list.id, 'bob', 'editor')
      const task = await createTaskIn(alice, list.id, 'shared')
      expectStatus(await bobThere.get(`/tasks/${task.id}`), 200)
      expectStatus(await bobThere.get(`/lists/${list.id}`), 200)
      expect((await alice.delete(`/lists/${list.id}/members/bob`)).statusCode).toBe(204)
      expectErrorBody(
        await bobThere.get(`/tasks/${task.id}`),
        404,
        `Task ${task.id} does not exist.`,
      )
      expectErrorBody(
        await bobThere.patch(`/tasks/${task.id}`, { name: 'x' }),
        404,
        `Task ${task.id} does not exist.`,
      )
      expectErrorBody(
        await bobThere.get(`/lists/${list.id}`),
        404,
        `List ${list.id} does not exist.`,
      )
      expect((await bobHere.get(`/tasks?list=${list.id}`)).statusCode).toBe(404)
    }
  })

  it('see a role lowered on the other at the very next change', async () => {
    const carol = as(second, (await makeToken(first, { principal: 'carol' })).token)
    const daveToken = (await makeToken(second, { principal: 'dave' })).token
    const list = await createList(carol, 'Lowered')
    await addMember(carol, list.id, 'dave', 'editor')
    const task = await createTaskIn(carol, list.id, 'watched')
    expectStatus(await as(first, daveToken).patch(`/tasks/${task.id}`, { name: 'by dave' }), 200)
    await addMember(carol, list.id, 'dave', 'viewer')
    expectErrorBody(
      await as(first, daveToken).patch(`/tasks/${task.id}`, { name: 'again' }),
      403,
      `Changing tasks in list ${list.id} needs the editor role; you have the viewer role there.`,
    )
  })
})
