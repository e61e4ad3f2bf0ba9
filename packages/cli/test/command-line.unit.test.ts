import { Readable } from 'node:stream'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { defineCommand } from '../src/command-line/define-command.js'
import { GLOBAL_FLAGS } from '../src/command-line/global-flags.js'
import { commandHelp } from '../src/command-line/help.js'
import { parseCommandLine } from '../src/command-line/parse-command-line.js'
import { knownFlags } from '../src/command-line/tokenize.js'
import { COMMANDS } from '../src/commands/index.js'
import { run } from '../src/run.js'
import { UsageError } from '../src/usage-error.js'
import { collected } from './support/cli.js'

/** What the commands given to `run` below were asked to do. */
const calls: unknown[] = []

// Commands of the shapes of done and edit: variadic ids, `--no-tag`, a choice.
const doneCommand = defineCommand({
  name: 'done',
  summary: 'Mark tasks done.',
  details: '',
  args: [{ name: 'ids', type: 'integer', label: '<id>', variadic: true }],
  flags: {},
  async run(options) {
    expectTypeOf(options.ids).toEqualTypeOf<readonly number[]>()
    calls.push(options)
    return 0
  },
})
const editCommand = defineCommand({
  name: 'edit',
  summary: 'Change a task.',
  details: '',
  args: [{ name: 'id', type: 'integer' }],
  flags: {
    name: { type: 'string', value: 'N', help: 'Rename it.' },
    tag: { type: 'string', value: 'T', help: 'Tag it.', negation: 'Remove its tag.' },
    status: { type: 'choice', value: 'S', choices: ['open', 'done'], help: 'Open or done.' },
  },
  async run(options) {
    expectTypeOf(options.id).toEqualTypeOf<number>()
    expectTypeOf(options.tag).toEqualTypeOf<string | false | undefined>()
    expectTypeOf(options.status).toEqualTypeOf<'open' | 'done' | undefined>()
    calls.push(options)
    return 0
  },
})
// In place of the real done and edit, so that run() below calls these.
const commands = [
  ...COMMANDS.filter(({ name }) => name !== 'done' && name !== 'edit'),
  doneCommand,
  editCommand,
]

/** The values `argv` gives its command, or the message of the UsageError it throws. */
function read(...argv: string[]): Readonly<Record<string, unknown>> | string {
  try {
    const invocation = parseCommandLine(argv, commands)
    return invocation.kind === 'run' ? invocation.values : invocation.kind
  } catch (error) {
    if (error instanceof UsageError) return error.message
    throw error
  }
}

describe('parseCommandLine', () => {
  it('types options and arguments as their specs say', () => {
    expect(read('list', '--limit', '5', '--desc', '--tag', 'a b', '--before', '9')).toEqual({
      limit: 5,
      desc: true,
      tag: 'a b',
      before: 9,
    })
    expect(read('--url', 'http://x', 'get', '42')).toEqual({ id: 42 })
    expect(read('add', '--', '-1 point')).toEqual({ name: '-1 point' })
    expect(read('import', '-')).toEqual({ file: '-' })
  })

  it('takes a negative number after an option as its value, and as an argument', () => {
    expect(read('list', '--limit', '-1')).toBe(
      "--limit must be a whole number from 0 to 2147483647, got '-1'.",
    )
    expect(read('list', '--tag', '-5')).toEqual({ tag: '-5' })
    expect(read('done', '1', '-2')).toBe(
      "<id> must be a whole number from 1 to 9007199254740991, got '-2'.",
    )
  })

  it('reads one or more ids for a variadic argument', () => {
    expect(read('done', '1', '2', '3')).toEqual({ ids: [1, 2, 3] })
    expect(read('done')).toBe('Missing <id>.')
  })

  it('reads --no-<name> as false where the spec has a negation, and nowhere else', () => {
    expect(read('edit', '3', '--no-tag', '--name', 'x')).toEqual({ id: 3, name: 'x', tag: false })
    expect(read('edit', '3', '--tag', 'a', '--no-tag')).toBe(
      "'--tag' and '--no-tag' cannot be given together.",
    )
    expect(read('edit', '3', '--no-tag', '--no-tag')).toBe("'--no-tag' is given twice.")
    expect(read('add', 'x', '--no-tag')).toBe("The add command has no option '--no-tag'.")
    expect(read('edit', '3', '--no-name')).toBe("Unknown option '--no-name'.")
    expect(read('edit', '3', '--no-tag=x')).toBe("Option '--no-tag' takes no value.")
  })

  it('reads a choice', () => {
    expect(read('edit', '3', '--status', 'done')).toEqual({ id: 3, status: 'done' })
    expect(read('edit', '3', '--status', 'closed')).toBe(
      "--status must be 'open' or 'done', got 'closed'.",
    )
  })

  it('answers -v, -V and --version with the version, -h and --help with the help', () => {
    for (const flag of ['-v', '-V', '--version']) expect(read(flag)).toBe('version')
    expect(read('list', '-h')).toBe('help')
  })

  it.each([
    [[]],
    [['lst']],
    [['--prot']],
    [['-vx']],
    [['list', '--tag']],
    [['list', '--tag', '--desc']],
    [['list', '--desc=1']],
    [['list', '-v=1']],
    [['get']],
    [['get', '1', '2']],
    [['add', 'a', 'b']],
    [['get', '1', '--tag', 'x']],
    [['list', '--desc', '--desc']],
    [['help', 'lst']],
    [['webhooks']],
    [['webhooks', 'purge']],
    [['webhooks', 'rm']],
    [['webhooks', 'ls', 'x']],
  ])('says what is wrong with %j in full sentences', (argv) => {
    const message = read(...argv)
    expect(message).toBeTypeOf('string')
    expect(message).toMatch(/^["'<A-Z-][^\n]*[.!?]$/)
    expect(message).not.toMatch(/\.\.$/)
  })

  it('refuses an option that has the name of an argument, at compile time', () => {
    defineCommand({
      name: 'clash',
      summary: '',
      details: '',
      args: [{ name: 'id', type: 'integer' }],
      // @ts-expect-error: `id` would be both the argument and the option.
      flags: { id: { type: 'boolean', help: '' } },
      run: async () => 0,
    })
    defineCommand({
      name: 'clash',
      summary: '',
      details: '',
      args: [{ name: 'url', type: 'string' }],
      // @ts-expect-error: `url` would be both the argument and the global --url.
      flags: {},
      run: async () => 0,
    })
  })

  it('reads a repeatable option as the list of its values, in order', () => {
    expect(
      read(
        'webhooks',
        'create',
        'https://x',
        '--list',
        'a',
        '--type',
        'task.created',
        '--list',
        '2',
      ),
    ).toEqual({ address: 'https://x', list: ['a', '2'], type: ['task.created'] })
    expect(read('webhooks', 'create', 'https://x')).toEqual({ address: 'https://x' })
    expect(read('webhooks', 'create', 'https://x', '--type', 'x', '--type', 'task.deleted')).toBe(
      "--type must be 'task.created', 'task.updated' or 'task.deleted', got 'x'.",
    )
  })

  it('picks the subcommand of a group by the word after it', () => {
    expect(read('webhooks', 'rm', '3')).toEqual({ id: 3 })
    expect(read('--url', 'http://x', 'webhooks', 'deliveries', '4', '--json')).toEqual({
      id: 4,
      json: true,
    })
    expect(read('webhooks')).toBe('Missing webhooks command.')
    expect(read('webhooks', 'purge')).toBe("Unknown webhooks command 'purge'.")
    expect(read('webhooks', '--help')).toBe('help')
    expect(read('help', 'webhooks', 'ls')).toBe('help')
    const help = parseCommandLine(['webhooks', 'ls', '--help'], commands)
    expect(help).toMatchObject({ kind: 'help', command: { name: 'webhooks ls' } })
  })
})

describe('the command specs', () => {
  it('read every option name alike in every command', () => {
    const every = commands.flatMap((command) => [command, ...(command.subcommands ?? [])])
    expect(every.map(({ name }) => name)).toContain('webhooks create')
    expect(() => knownFlags([GLOBAL_FLAGS, ...every.map(({ flags }) => flags)])).not.toThrow()
    expect(() =>
      knownFlags([{ tag: { type: 'boolean', help: '' } }, ...COMMANDS.map(({ flags }) => flags)]),
    ).toThrow('--tag takes a value in one command and none in another')
  })

  it('show a negation and a variadic argument in the help', () => {
    expect(commandHelp(editCommand).split('\n')[0]).toBe(
      'Usage: tasklane edit <id> [--name N] [--tag T | --no-tag] [--status S] [--url URL]',
    )
    expect(commandHelp(editCommand)).toMatch(/^ {6}--no-tag +Remove its tag\.$/m)
    expect(commandHelp(doneCommand).split('\n')[0]).toBe('Usage: tasklane done <id>… [--url URL]')
  })
})

describe('run, given its input and output', () => {
  const environment = (argv: string[]) => ({
    argv,
    env: { TASKLANE_URL: 'http://127.0.0.1:9' },
    stdin: Readable.from([]),
    stdout: collected(),
    stderr: collected(),
    signal: new AbortController().signal,
    version: '9.9.9',
    commands,
  })

  it("hands a command its typed options, and prints a usage error with its command's help", async () => {
    const ok = environment(['done', '4', '5'])
    expect(await run(ok)).toBe(0)
    expect(calls.at(-1)).toEqual({ ids: [4, 5] })
    const wrong = environment(['edit', 'x'])
    expect(await run(wrong)).toBe(2)
    expect(wrong.stderr.text).toBe(
      "tasklane: <id> must be a whole number from 1 to 9007199254740991, got 'x'. See 'tasklane edit --help'.\n",
    )
  })

  it('prints the version for -v', async () => {
    const given = environment(['-v'])
    expect(await run(given)).toBe(0)
    expect(given.stdout.text).toBe('9.9.9\n')
  })
})
