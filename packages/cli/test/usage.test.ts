import { freePort } from '@tasklane/testing/launch'
import { beforeAll, describe, expect, it } from 'vitest'
import { tasklane, tasklaneInProcess } from './support/cli.js'

/** A server address where nothing listens: a usage error must come before any request. */
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  env = { TASKLANE_URL: `http://127.0.0.1:${await freePort()}` }
})

describe('usage errors', () => {
  it.each([
    [['lst'], "tasklane: Unknown command 'lst'. See 'tasklane --help'.\n"],
    [[], "tasklane: Missing command. See 'tasklane --help'.\n"],
    [['--prot', '80'], "tasklane: Unknown option '--prot'. See 'tasklane --help'.\n"],
    [['list', '--limt', '3'], "tasklane: Unknown option '--limt'. See 'tasklane list --help'.\n"],
    [['list', '-x'], "tasklane: Unknown option '-x'. See 'tasklane list --help'.\n"],
    [
      ['get', '--desc', '1'],
      "tasklane: The get command has no option '--desc'. See 'tasklane get --help'.\n",
    ],
    [['add'], "tasklane: Missing <name>. See 'tasklane add --help'.\n"],
    [
      ['add', 'two', 'words'],
      "tasklane: Unexpected argument 'words' (quote a name that has spaces). See 'tasklane add --help'.\n",
    ],
    [
      ['get', 'abc'],
      "tasklane: <id> must be a whole number from 1 to 9007199254740991, got 'abc'. See 'tasklane get --help'.\n",
    ],
    [
      ['get', '-5'],
      "tasklane: <id> must be a whole number from 1 to 9007199254740991, got '-5'. See 'tasklane get --help'.\n",
    ],
    [
      ['get', '\u001b[2J'],
      "tasklane: <id> must be a whole number from 1 to 9007199254740991, got '\\u001b[2J'. See 'tasklane get --help'.\n",
    ],
    [
      ['list', '--limit', '-1'],
      "tasklane: --limit must be a whole number from 0 to 2147483647, got '-1'. See 'tasklane list --help'.\n",
    ],
    [
      ['list', '--limit=-1'],
      "tasklane: --limit must be a whole number from 0 to 2147483647, got '-1'. See 'tasklane list --help'.\n",
    ],
    [
      ['list', '--after', '-5'],
      "tasklane: --after must be a whole number from 0 to 9007199254740991, got '-5'. See 'tasklane list --help'.\n",
    ],
    [
      ['list', '--before', '0'],
      "tasklane: --before must be a whole number from 1 to 9007199254740991, got '0'. See 'tasklane list --help'.\n",
    ],
    [
      ['list', '--limit', '2147483648'],
      "tasklane: --limit must be a whole number from 0 to 2147483647, got '2147483648'. See 'tasklane list --help'.\n",
    ],
    [['list', '--tag'], "tasklane: Option '--tag' needs a value. See 'tasklane list --help'.\n"],
    [
      ['list', '--tag', '--json'],
      "tasklane: Option '--tag' needs a value. Write --tag=VALUE for one that starts with '-'. See 'tasklane list --help'.\n",
    ],
    [
      ['list', '--json=yes'],
      "tasklane: Option '--json' takes no value. See 'tasklane list --help'.\n",
    ],
    [
      ['list', '--tag', 'a', '--tag', 'b'],
      "tasklane: '--tag' is given twice. See 'tasklane list --help'.\n",
    ],
    [
      ['list', '--url', 'ftp://example.com'],
      "tasklane: --url must be an http:// or https:// URL, got 'ftp://example.com'. See 'tasklane list --help'.\n",
    ],
    [
      ['import', '/nonexistent/tasks.ndjson', '--concurrency', '0'],
      "tasklane: --concurrency must be a whole number from 1 to 256, got '0'. See 'tasklane import --help'.\n",
    ],
    [
      ['add', ''],
      "tasklane: The name must have at least one visible character, got ''. See 'tasklane add --help'.\n",
    ],
    [
      ['add', ' \t '],
      "tasklane: The name must have at least one visible character, got ' \\t '. See 'tasklane add --help'.\n",
    ],
    [
      ['add', 'x'.repeat(201)],
      "tasklane: The name is 201 characters long, over the 200 it may have. See 'tasklane add --help'.\n",
    ],
    [
      ['add', 'Fine', '--tag', ' '],
      "tasklane: The tag must have at least one visible character, got ' '. See 'tasklane add --help'.\n",
    ],
    [
      ['add', 'Fine', '--tag', 't'.repeat(65)],
      "tasklane: The tag is 65 characters long, over the 64 it may have. See 'tasklane add --help'.\n",
    ],
    [
      ['edit', '3', '--name', ''],
      "tasklane: The name must have at least one visible character, got ''. See 'tasklane edit --help'.\n",
    ],
    [
      ['edit', '3', '--tag', 't'.repeat(65)],
      "tasklane: The tag is 65 characters long, over the 64 it may have. See 'tasklane edit --help'.\n",
    ],
    [
      ['add', 'Fine', '--notes', ' \n '],
      "tasklane: The notes must have at least one visible character, got ' \\n '. See 'tasklane add --help'.\n",
    ],
    [
      ['add', 'Fine', '--priority', 'urgent'],
      "tasklane: --priority must be 'none', 'low', 'medium', 'high', '0', '1', '2' or '3', got 'urgent'. See 'tasklane add --help'.\n",
    ],
    [
      ['edit', '3', '--notes', 'n'.repeat(10_001)],
      "tasklane: The notes are 10001 characters long, over the 10000 they may have. See 'tasklane edit --help'.\n",
    ],
    [
      ['edit', '3', '--due', '2026-12-01', '--no-due'],
      "tasklane: '--due' and '--no-due' cannot be given together. See 'tasklane edit --help'.\n",
    ],
    [
      ['move', '3'],
      "tasklane: Say where: give --before ID, --after ID, --top or --bottom. See 'tasklane move --help'.\n",
    ],
    [
      ['move', '3', '--top', '--after', '4'],
      "tasklane: '--after' and '--top' cannot be given together. See 'tasklane move --help'.\n",
    ],
    [
      ['move', '3', '--before', '0'],
      "tasklane: --before must be a whole number from 1 to 9007199254740991, got '0'. See 'tasklane move --help'.\n",
    ],
    [
      ['list', '--sort', 'name'],
      "tasklane: --sort must be 'id', 'due', 'priority', 'position' or 'updated', got 'name'. See 'tasklane list --help'.\n",
    ],
    [
      ['list', '--desc', '--order', 'asc'],
      "tasklane: '--desc' and '--order asc' cannot be given together. See 'tasklane list --help'.\n",
    ],
    [['search'], "tasklane: Missing <word>. See 'tasklane search --help'.\n"],
    [
      ['history', '0'],
      "tasklane: <id> must be a whole number from 1 to 9007199254740991, got '0'. See 'tasklane history --help'.\n",
    ],
    [
      ['list', '--all', '--limit', '5'],
      "tasklane: '--all' and '--limit' cannot be given together. See 'tasklane list --help'.\n",
    ],
    [['done'], "tasklane: Missing <id>. See 'tasklane done --help'.\n"],
    [
      ['rm', '3', 'x'],
      "tasklane: <id> must be a whole number from 1 to 9007199254740991, got 'x'. See 'tasklane rm --help'.\n",
    ],
    [
      ['done', '3', '4', '--if-match', '2'],
      "tasklane: --if-match takes a single <id>: a version is that of one task. See 'tasklane done --help'.\n",
    ],
    [
      ['reopen', '3', '--if-match', '0'],
      "tasklane: --if-match must be a whole number from 1 to 9007199254740991, got '0'. See 'tasklane reopen --help'.\n",
    ],
    [
      ['edit', '3'],
      "tasklane: Nothing to change: give --name, --tag, --no-tag, --notes, --no-notes, --due, --no-due or --priority. See 'tasklane edit --help'.\n",
    ],
    [
      ['edit', '3', '--tag', 'a', '--no-tag'],
      "tasklane: '--tag' and '--no-tag' cannot be given together. See 'tasklane edit --help'.\n",
    ],
    [
      ['list', '--no-tag'],
      "tasklane: The list command has no option '--no-tag'. See 'tasklane list --help'.\n",
    ],
    [
      ['list', '--status', 'closed'],
      "tasklane: --status must be 'open' or 'done', got 'closed'. See 'tasklane list --help'.\n",
    ],
    [
      ['watch', '--after', '-1'],
      "tasklane: --after must be a whole number from 0 to 9007199254740991, got '-1'. See 'tasklane watch --help'.\n",
    ],
  ])(
    'exits 2 with one or two sentences and a hint to --help for tasklane %j',
    async (args, stderr) => {
      const result = await tasklaneInProcess(args, env)
      expect(result).toEqual({ status: 2, stdout: '', stderr })
    },
  )

  it.each([
    [
      ['import', '/nonexistent/tasks.ndjson'],
      'tasklane import: no such file: /nonexistent/tasks.ndjson\n',
    ],
    [['import', '/'], 'tasklane import: not a file: /\n'],
    [
      ['import', '/nonexistent/\u001b[2J'],
      'tasklane import: no such file: /nonexistent/\\u001b[2J\n',
    ],
  ])(
    'exits 2 with one line naming the file that cannot be read: tasklane %j',
    async (args, stderr) => {
      const result = await tasklaneInProcess(args, env)
      expect(result).toEqual({ status: 2, stdout: '', stderr })
    },
  )

  it('exits 2 when TASKLANE_URL is not a URL', async () => {
    const result = await tasklaneInProcess(['list'], { TASKLANE_URL: 'not a url' })
    expect(result.status).toBe(2)
    expect(result.stderr).toBe(
      "tasklane: TASKLANE_URL must be an http:// or https:// URL, got 'not a url'. See 'tasklane list --help'.\n",
    )
  })
})

describe('what the client cannot send', () => {
  it('exits 2 with one line, before any request, when TASKLANE_TOKEN holds a line break', async () => {
    const result = await tasklaneInProcess(['list'], {
      ...env,
      TASKLANE_TOKEN: 'secret\nX-Evil: 1',
    })
    expect(result).toEqual({
      status: 2,
      stdout: '',
      stderr:
        "tasklane: TASKLANE_TOKEN must be printable ASCII: it has a line break, control or non-ASCII character at index 6. See 'tasklane list --help'.\n",
    })
  })

  it("exits 2 with the client's TypeError on one line, not a stack trace", async () => {
    // fetch refuses a URL with credentials; the client throws its TypeError as it is.
    const url = env.TASKLANE_URL?.replace('http://', 'http://user:pw@') as string
    const result = await tasklaneInProcess(['rm', '1', '--url', url])
    expect(result.status).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^tasklane: [^\n]*credentials[^\n]*\n$/)
  })
})

describe('help and version', () => {
  it.each([{ args: ['--version'] }, { args: ['-v'] }, { args: ['-V'] }, { args: ['list', '-v'] }])(
    'prints the version of the package with $args',
    async ({ args }) => {
      const { version } = (await import('../package.json', { with: { type: 'json' } })).default
      expect(await tasklane(args)).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' })
    },
  )

  it('lists every command, TASKLANE_URL, TASKLANE_TOKEN and the exit statuses with --help', async () => {
    const result = await tasklane(['--help'])
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/^Usage: tasklane <command> \[options\]/)
    const commands = [
      'add',
      'list',
      'search',
      'get',
      'done',
      'reopen',
      'edit',
      'move',
      'rm',
      'history',
      'watch',
      'export',
      'import',
      'webhooks',
      'lists',
      'members',
      'tokens',
      'login',
      'logout',
    ]
    for (const word of commands) {
      expect(result.stdout).toMatch(new RegExp(`^  ${word} `, 'm'))
    }
    for (const word of ['TASKLANE_URL', 'TASKLANE_TOKEN', 'Exit status']) {
      expect(result.stdout).toContain(word)
    }
    expect(result.stdout).toMatch(/^ {2}-v, -V, --version +Print the version and exit\.$/m)
  })

  it.each([
    [
      'add',
      'Usage: tasklane add <name> [--tag T] [--notes TEXT] [--due DATE] [--priority P] [--list LIST] [--json] [--url URL]',
    ],
    [
      'list',
      'Usage: tasklane list [--limit N] [--all] [--tag T] [--status S] [--list LIST] [--priority P] [--due-from DAY] [--due-to DAY] [--overdue] [--tz ZONE] [--sort FIELD] [--order ORDER] [--desc] [--after ID] [--before ID] [--q WORDS] [--json] [--url URL]',
    ],
    [
      'search',
      'Usage: tasklane search <word>… [--limit N] [--all] [--tag T] [--status S] [--list LIST] [--priority P] [--due-from DAY] [--due-to DAY] [--overdue] [--tz ZONE] [--sort FIELD] [--order ORDER] [--desc] [--after ID] [--before ID] [--json] [--url URL]',
    ],
    ['get', 'Usage: tasklane get <id> [--json] [--url URL]'],
    ['done', 'Usage: tasklane done <id>… [--if-match VERSION] [--json] [--url URL]'],
    ['reopen', 'Usage: tasklane reopen <id>… [--if-match VERSION] [--json] [--url URL]'],
    [
      'edit',
      'Usage: tasklane edit <id> [--name N] [--tag T | --no-tag] [--notes TEXT | --no-notes] [--due DATE | --no-due] [--priority P] [--if-match VERSION] [--json] [--url URL]',
    ],
    [
      'move',
      'Usage: tasklane move <id> [--before ID] [--after ID] [--top] [--bottom] [--list LIST] [--if-match VERSION] [--json] [--url URL]',
    ],
    ['history', 'Usage: tasklane history <id> [--limit N] [--json] [--url URL]'],
    ['rm', 'Usage: tasklane rm <id>… [--if-match VERSION] [--url URL]'],
    [
      'watch',
      'Usage: tasklane watch [--tag T] [--status S] [--list LIST] [--after SEQ] [--json] [--url URL]',
    ],
    ['export', 'Usage: tasklane export [--tag T] [--status S] [--list LIST] [--url URL]'],
    ['import', 'Usage: tasklane import <file.ndjson> [--concurrency N] [--json] [--url URL]'],
    ['login', 'Usage: tasklane login [--url URL]'],
    ['logout', 'Usage: tasklane logout [--url URL]'],
  ])('prints the usage of %s with --help and with help <command>', async (command, usage) => {
    const flag = await tasklaneInProcess([command, '--help'])
    expect(flag.status).toBe(0)
    expect(flag.stdout.split('\n')[0]).toBe(usage)
    expect(await tasklaneInProcess(['help', command])).toEqual(flag)
  })

  it('prints a command’s usage from the built tasklane as from run()', async () => {
    expect(await tasklane(['import', '--help'])).toEqual(
      await tasklaneInProcess(['import', '--help']),
    )
  })

  it('says in the help of watch that --after is a seq, not a task id', async () => {
    const { stdout } = await tasklaneInProcess(['watch', '--help'])
    expect(stdout).toMatch(/^ {6}--after SEQ +Start after change SEQ \(a seq, not a task id\)/m)
  })
})
