import { type Static, Type } from '@sinclair/typebox'

/** The body of every non-2xx response: `code` equals the HTTP status. */
export const ErrorBody = Type.Object(
  {
    code: Type.Integer({ format: 'int32', description: 'The HTTP status code.', examples: [400] }),
    message: Type.String({
      description: 'One readable sentence; names the offending field or parameter for a 4xx.',
      examples: ['Query parameter "limit" must be at most 2147483647.'],
    }),
  },
  { $id: 'Error', additionalProperties: false, description: 'An error.' },
)
/** The body of every non-2xx response. */
export type ErrorBody = Static<typeof ErrorBody>
