import type { RequestOptions } from './options.js'
import { fillPath, ME_PATH, TOKEN_PATH, TOKENS_PATH } from './paths.js'
import type { Transport } from './transport.js'
import type { CreatedToken, Me, NewToken, Token } from './types.js'

/** The methods of credentials and of the caller itself. */
export interface AccessMethods {
  /**
   * Makes an access token and returns its record with its secret, `token` (`tl_…`), shown
   * this once: keep it now. An admin makes one for any principal; anyone else for itself,
   * never with more than it has. Never retried (it sends no Idempotency-Key, so a retry could
   * make a second token whose secret would be lost); a 409 on a server without credentials.
   * @example
   * const made = await client.createToken({ name: 'CI', principal: 'ci-bot', role: 'write' })
   * const bot = createClient({ baseUrl: 'http://127.0.0.1:3000', token: made.token })
   */
  createToken(token: NewToken, options?: RequestOptions): Promise<CreatedToken>
  /**
   * The caller's access tokens (an admin: every token), never their secrets.
   * @example
   * for (const token of await client.listTokens()) console.log(token.id, token.name)
   */
  listTokens(options?: RequestOptions): Promise<Token[]>
  /**
   * Revokes an access token: the next request with it gets a 401, on every server instance.
   * Not retried (a repeat of a revoke that happened would be a 404).
   * @example
   * await client.revokeToken(3)
   */
  revokeToken(id: number, options?: RequestOptions): Promise<void>
  /**
   * Who the caller is as the server sees it: its principal, what its credential allows, its
   * role in each list.
   * @example
   * const { principal, role, roles } = await client.me()
   */
  me(options?: RequestOptions): Promise<Me>
}

/** The access methods of a client, on its transport. */
export function accessMethods(transport: Transport): AccessMethods {
  const call = async <T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: RequestOptions | undefined,
    schema?: 'Token[]' | 'CreatedToken' | 'Me',
    body?: NewToken,
  ) => (await transport.send<T>({ method, path, body, schema, options })).data

  return {
    // No Idempotency-Key: the transport retries no POST without one.
    createToken: (token, options) =>
      call<CreatedToken>('POST', TOKENS_PATH, options, 'CreatedToken', token),
    listTokens: (options) => call<Token[]>('GET', TOKENS_PATH, options, 'Token[]'),
    revokeToken: (id, options) => call<undefined>('DELETE', fillPath(TOKEN_PATH, id), options),
    me: (options) => call<Me>('GET', ME_PATH, options, 'Me'),
  }
}
