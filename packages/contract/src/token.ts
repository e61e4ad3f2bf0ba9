// Access tokens, made through the API: each names a principal, narrows what it may do (a
// role, optionally some lists) and may expire. The secret is shown once, at creation.
import { type Static, Type } from '@sinclair/typebox'
import { Role } from './list.js'
import { ListIdOf, MAX_TASK_ID, PrincipalOf, TaskName, Timestamp } from './task.js'

/** What a credential allows: read (no changes), write (what its principal's roles allow), admin. */
export const Access = Type.Union(
  [Type.Literal('read'), Type.Literal('write'), Type.Literal('admin')],
  {
    description:
      "read: no changes; write: what the principal's roles allow; admin: everything, as the owner of every list (only an admin makes one).",
    examples: ['write'],
  },
)
/** What a credential allows. */
export type Access = Static<typeof Access>

const TokenId = Type.Integer({
  minimum: 1,
  maximum: MAX_TASK_ID,
  format: 'int64',
  description: 'Identifier of the token.',
  examples: [1],
})

/** The body of POST /tokens. */
export const NewToken = Type.Object(
  {
    name: Type.Unsafe<string>({
      ...TaskName,
      description: 'What the token is for: 1–200 characters.',
      examples: ['CI'],
    }),
    principal: Type.Optional(
      // The first sentence is what a 400 says the value must be.
      PrincipalOf(
        '1 to 128 visible ASCII characters. Who the token acts as; omitted: the caller. Only an admin names another.',
      ),
    ),
    role: Type.Optional(Access),
    lists: Type.Optional(
      Type.Array(ListIdOf('A list the token may reach.'), {
        minItems: 1,
        maxItems: 100,
        uniqueItems: true,
        description: 'Only these lists. Omitted: every list of its principal.',
      }),
    ),
    expiresAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'When the token stops working (RFC 3339, in the future). Omitted: never.',
        examples: ['2027-01-01T00:00:00Z'],
      }),
    ),
  },
  { $id: 'NewToken', additionalProperties: false, description: 'An access token to make.' },
)
/** The body of POST /tokens. */
export type NewToken = Static<typeof NewToken>

const tokenFields = {
  id: TokenId,
  name: Type.String({ description: 'What the token is for.' }),
  principal: PrincipalOf('Who the token acts as.'),
  role: Access,
  lists: Type.Optional(
    Type.Array(ListIdOf('A list the token may reach.'), { description: 'Only these lists.' }),
  ),
  expiresAt: Type.Optional(Timestamp('When the token stops working.')),
  createdAt: Timestamp('When the token was made.'),
  createdBy: PrincipalOf('Who made the token.'),
}

/** An access token as listed: never its secret. */
export const Token = Type.Object(tokenFields, {
  $id: 'Token',
  additionalProperties: false,
  description: 'An access token (its secret is never shown again).',
})
/** An access token as listed. */
export type Token = Static<typeof Token>

/** An access token as made: its record and, this once, its secret. */
export const CreatedToken = Type.Object(
  {
    ...tokenFields,
    token: Type.String({
      pattern: '^tl_[A-Za-z0-9_-]{43,}$',
      description: 'The secret: send it as "Authorization: Bearer <token>". Shown this once.',
      examples: ['tl_3q2-7wEXAMPLEs9v3cK8Zb1mFqkT0yJXo2uR4nH6dPaLgWe'],
    }),
  },
  {
    $id: 'CreatedToken',
    additionalProperties: false,
    description: 'A new access token, with its secret (shown this once).',
  },
)
/** An access token as made. */
export type CreatedToken = Static<typeof CreatedToken>

/** Path parameters of /tokens/{id}. */
export const TokenParams = Type.Object({ id: TokenId }, { additionalProperties: false })
/** Path parameters of /tokens/{id}. */
export type TokenParams = Static<typeof TokenParams>

/** Who the caller is and what it may do: GET /me. */
export const Me = Type.Object(
  {
    principal: PrincipalOf('The principal the request acts as.'),
    role: Access,
    lists: Type.Optional(
      Type.Array(ListIdOf('A list the credential may reach.'), {
        description: 'Only these lists (the credential narrows it).',
      }),
    ),
    roles: Type.Array(
      Type.Object({ listId: ListIdOf('A list.'), role: Role }, { additionalProperties: false }),
      {
        description: "The principal's role in each list it is a member of (an admin: none needed).",
      },
    ),
  },
  { $id: 'Me', additionalProperties: false, description: 'The caller, as the server sees it.' },
)
/** The caller, as the server sees it. */
export type Me = Static<typeof Me>
