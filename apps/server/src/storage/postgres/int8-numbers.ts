import pg from 'pg'

const INT8_OID = 20

/**
 * bigint (int8) columns arrive as JS numbers instead of node-postgres' default strings.
 * Exact: the tasks id sequence stops at 2^53-1 (migration 0003), and counts stay far below.
 * Set on this storage's pools only, so other users of `pg` in the process keep their parsers.
 */
export const int8Numbers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
}
