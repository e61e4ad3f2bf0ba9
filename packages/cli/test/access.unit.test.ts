import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseCommandLine } from '../src/command-line/parse-command-line.js'
import { expiryOf } from '../src/commands/expiry.js'
import { COMMANDS } from '../src/commands/index.js'
import {
  CredentialsError,
  configDirOf,
  removeToken,
  serverKey,
  storedToken,
  storeToken,
} from '../src/credentials.js'
import { UsageError } from '../src/usage-error.js'

describe('expiryOf (tokens create --expires)', () => {
  const now = new Date('2026-11-28T12:00:00.000Z')

  it.each([
    ['90m', '2026-11-28T13:30:00.000Z'],
    ['12h', '2026-11-29T00:00:00.000Z'],
    ['30d', '2026-12-28T12:00:00.000Z'],
    ['2w', '2026-12-12T12:00:00.000Z'],
    ['2027-01-01', '2027-01-01T00:00:00Z'],
    ['2027-01-01T09:00:00+01:00', '2027-01-01T09:00:00+01:00'],
  ])('reads %s as %s', (text, expected) => {
    expect(expiryOf(text, now, 'tokens create')).toBe(expected)
  })

  it.each(['0d', 'tomorrow', '30', '3y', '-1d', ''])('refuses %j as a usage error', (text) => {
    expect(() => expiryOf(text, now, 'tokens create')).toThrow(UsageError)
  })
})

describe('the stored tokens', () => {
  const dirs: string[] = []
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tasklane-credentials-'))
    dirs.push(dir)
    return join(dir, 'tasklane')
  }
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('lives in $XDG_CONFIG_HOME/tasklane (absolute only), else ~/.config/tasklane', () => {
    expect(configDirOf({ XDG_CONFIG_HOME: '/x/config', HOME: '/home/a' })).toBe(
      '/x/config/tasklane',
    )
    expect(configDirOf({ XDG_CONFIG_HOME: 'relative', HOME: '/home/a' })).toBe(
      '/home/a/.config/tasklane',
    )
    expect(configDirOf({ HOME: '/home/a' })).toBe('/home/a/.config/tasklane')
    expect(configDirOf({})).toBeUndefined()
  })

  it('keys a token by the server URL without a trailing slash, query or fragment', () => {
    expect(serverKey('http://127.0.0.1:3000/')).toBe('http://127.0.0.1:3000')
    expect(serverKey('HTTPS://Example.com/tasklane/?x=1#y')).toBe('https://example.com/tasklane')
  })

  it('stores one token a server, mode 0600, replaces it, and removes it', () => {
    const dir = newDir()
    expect(storedToken(dir, 'http://a:1')).toBeUndefined()
    const path = storeToken(dir, 'http://a:1/', 'one')
    storeToken(dir, 'http://b:2', 'two')
    storeToken(dir, 'http://a:1', 'three')
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(storedToken(dir, 'http://a:1')).toBe('three')
    expect(storedToken(dir, 'http://b:2/')).toBe('two')
    expect(removeToken(dir, 'http://a:1')).toBe(true)
    expect(removeToken(dir, 'http://a:1')).toBe(false)
    expect(storedToken(dir, 'http://b:2')).toBe('two')
  })

  it('says which file is wrong when it is not one of stored tokens', () => {
    const dir = newDir()
    storeToken(dir, 'http://a:1', 'one')
    writeFileSync(join(dir, 'credentials.json'), '{"tokens": [1]}')
    expect(() => storedToken(dir, 'http://a:1')).toThrow(CredentialsError)
    expect(() => storedToken(dir, 'http://a:1')).toThrow(/credentials\.json is not a file/)
  })
})

describe('groups with a default command', () => {
  const parse = (...argv: string[]) => {
    const invocation = parseCommandLine(argv, COMMANDS)
    if (invocation.kind !== 'run') throw new Error(`not a run: ${invocation.kind}`)
    return { name: invocation.command.name, values: invocation.values }
  }

  it('runs lists ls for `lists`, and members ls for `members <list>`', () => {
    expect(parse('lists', '--json')).toEqual({ name: 'lists ls', values: { json: true } })
    expect(parse('members', 'Groceries')).toEqual({
      name: 'members ls',
      values: { list: 'Groceries' },
    })
    expect(parse('members', 'ls', 'add')).toEqual({ name: 'members ls', values: { list: 'add' } })
    expect(parse('members', 'add', '2', 'bob', '--role', 'viewer')).toEqual({
      name: 'members add',
      values: { list: '2', principal: 'bob', role: 'viewer' },
    })
  })

  it('refuses an unknown word where the default takes no argument, and shows the group help', () => {
    expect(() => parse('lists', 'nope')).toThrow("Unknown lists command 'nope'.")
    expect(() => parse('tokens')).toThrow('Missing tokens command.')
    const help = parseCommandLine(['members', '--help'], COMMANDS)
    expect(help).toMatchObject({ kind: 'help', command: { name: 'members' } })
    const sub = parseCommandLine(['members', 'Groceries', '--help'], COMMANDS)
    expect(sub).toMatchObject({ kind: 'help', command: { name: 'members ls' } })
  })
})
