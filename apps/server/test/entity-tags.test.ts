import { describe, expect, it } from 'vitest'
import { ENTITY_TAG_LIST, ifMatchOf, noneMatchHits } from '../src/http/entity-tags.js'

const isList = (value: string) => new RegExp(ENTITY_TAG_LIST).test(value)

describe('ENTITY_TAG_LIST (If-Match and If-None-Match, RFC 9110)', () => {
  it.each([
    '"7"',
    'W/"7"',
    '*',
    ' * ',
    '"7", "999"',
    '"7",,"999"',
    '"7" , , "999"',
    ',"7"',
    '"7",',
    ' , "7" ,, W/"8" , ',
    '"a,b"',
    '""',
  ])('accepts %j: empty list elements are ignored (RFC 9110, 5.6.1.2)', (value) => {
    expect(isList(value)).toBe(true)
  })

  it.each([
    ['an empty value', ''],
    ['only commas', ' , ,'],
    ['garbage', 'garbage'],
    ['an unquoted version', '3'],
    ['an unterminated tag', '"3'],
    ['* in a list', '*, "3"'],
    ['* after a comma', ', *'],
    ['two tags without a comma', '"1" "2"'],
    ['a tag with a space', '"1 2"'],
  ])('refuses %s', (_label, value) => {
    expect(isList(value)).toBe(false)
  })

  it('reads the same with and without the u flag, as every JSON Schema validator does', () => {
    for (const value of ['"7",,"999"', ',W/"1",', '*', '"1" "2"', ', *']) {
      expect(new RegExp(ENTITY_TAG_LIST, 'u').test(value)).toBe(isList(value))
    }
  })
})

describe('ifMatchOf', () => {
  it('takes the versions of a list with empty elements', () => {
    expect(ifMatchOf('"7",,"999"')).toEqual([7, 999])
    expect(ifMatchOf(', "3",')).toEqual([3])
  })

  it('keeps only strong tags that name a version', () => {
    expect(ifMatchOf('W/"3", "04", "x", "5"')).toEqual([5])
    expect(ifMatchOf(' * ')).toBe('*')
  })
})

describe('noneMatchHits', () => {
  it('compares weakly, also in a list with empty elements', () => {
    expect(noneMatchHits(',,W/"3",', 3)).toBe(true)
    expect(noneMatchHits('"2",,"4"', 3)).toBe(false)
  })
})
