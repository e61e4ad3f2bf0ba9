import { createClient, type TasklaneClient } from '@tasklane/client'
import { PlanningApi } from './planning-api.js'
import { savedToken, saveToken } from './token.js'

/** Same origin: the page is served by the server whose API it calls. */
const clientWith = (token: string | undefined): TasklaneClient =>
  createClient({ baseUrl: location.origin, ...(token === undefined ? {} : { token }) })

/** The API the page calls, with the token kept for the tab (if any). */
export class PageApi {
  #client = clientWith(savedToken())
  /** Reads the token kept at each call, so it needs no renewal. */
  readonly planning = new PlanningApi(savedToken)

  /** The client's calls, with the token in use. */
  get client(): TasklaneClient {
    return this.#client
  }

  /** Keeps `token` for the tab: the calls from now on carry it. */
  useToken(token: string): void {
    saveToken(token)
    this.#client = clientWith(savedToken())
  }
}
