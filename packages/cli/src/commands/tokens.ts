import { defineGroup } from '../command-line/define-command.js'
import { tokensCreateCommand } from './tokens-create.js'
import { tokensLsCommand } from './tokens-ls.js'
import { tokensRevokeCommand } from './tokens-revoke.js'

/** `tasklane tokens create|ls|revoke`: access tokens for people and programs. */
export const tokensCommand = defineGroup({
  name: 'tokens',
  summary: 'Make, list and revoke access tokens.',
  details:
    'An access token acts as a principal, perhaps with less than it may (read only, some\n' +
    'lists, an expiry). Its secret is printed once, when it is made. A server without\n' +
    'credentials (no API_TOKEN) has no tokens: these commands exit 1 there.',
  subcommands: [tokensCreateCommand, tokensLsCommand, tokensRevokeCommand],
})
