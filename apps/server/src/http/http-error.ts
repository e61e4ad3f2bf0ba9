/**
 * A failure of the HTTP exchange itself (wrong Content-Type, a malformed body, a missing
 * Host header): a status and a message safe to show the caller, plus any headers.
 * Failures of the domain are errors.ts's; plugins/errors.ts maps both.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message)
  }
}
