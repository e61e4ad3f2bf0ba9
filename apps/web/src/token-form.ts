import { announce } from './announce.js'
import { ui } from './dom.js'
import { tokenWords } from './messages.js'
import type { PageApi } from './page-api.js'
import { savedToken } from './token.js'

/** The server wants a token: ask for it. */
export function askForToken(error: unknown): void {
  ui.tokenSection.hidden = false
  ui.listState.textContent = tokenWords(error, savedToken() !== undefined)
  announce('This server requires an API token: enter it to see the tasks.')
  ui.tokenInput.focus()
}

/** The token's form: the token entered is used from now on, then `entered` is called. */
export function listenForToken(api: PageApi, entered: () => void): void {
  ui.tokenForm.addEventListener('submit', (event) => {
    event.preventDefault()
    api.useToken(ui.tokenInput.value)
    ui.tokenInput.value = ''
    ui.tokenSection.hidden = true
    entered()
  })
}
