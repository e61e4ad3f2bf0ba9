import type { Command } from '../command-line/define-command.js'
import { addCommand } from './add.js'
import { doneCommand } from './done.js'
import { editCommand } from './edit.js'
import { exportCommand } from './export.js'
import { getCommand } from './get.js'
import { historyCommand } from './history.js'
import { importCommand } from './import.js'
import { listCommand } from './list.js'
import { listsCommand } from './lists.js'
import { loginCommand } from './login.js'
import { logoutCommand } from './logout.js'
import { membersCommand } from './members.js'
import { moveCommand } from './move.js'
import { reopenCommand } from './reopen.js'
import { rmCommand } from './rm.js'
import { searchCommand } from './search.js'
import { tokensCommand } from './tokens.js'
import { watchCommand } from './watch.js'
import { webhooksCommand } from './webhooks.js'

/** Every command of `tasklane`, in the order the help lists them. */
export const COMMANDS: readonly Command[] = [
  addCommand,
  listCommand,
  searchCommand,
  getCommand,
  doneCommand,
  reopenCommand,
  editCommand,
  moveCommand,
  rmCommand,
  historyCommand,
  watchCommand,
  exportCommand,
  importCommand,
  webhooksCommand,
  listsCommand,
  membersCommand,
  tokensCommand,
  loginCommand,
  logoutCommand,
]
