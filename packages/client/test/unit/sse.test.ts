import { describe, expect, it } from 'vitest'
import { type SseEvent, SseParser, sseEvents } from '../../src/sse.js'

/** The events of a stream that arrives in exactly these chunks. */
function parse(chunks: (string | Uint8Array)[], maxLength?: number): SseEvent[] {
  const parser = new SseParser(maxLength)
  return chunks.flatMap((chunk) => parser.push(chunk))
}

const event = (data: string, more: Partial<SseEvent> = {}): SseEvent => ({
  id: '',
  event: 'message',
  data,
  retry: undefined,
  ...more,
})

// The cases follow the examples of the WHATWG HTML standard, section 9.2.6
// ("Interpreting an event stream") and 9.2.5 ("Parsing an event stream").
describe('SseParser', () => {
  it('joins the data lines of one event with \\n', () => {
    expect(parse(['data: YHOO\ndata: +2\ndata: 10\n\n'])).toEqual([event('YHOO\n+2\n10')])
  })

  it('skips comments, carries the last event id over, and drops an event the stream cut off', () => {
    const stream =
      ': test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n'
    expect(parse([stream])).toEqual([
      event('first event', { id: '1' }),
      event('second event', { id: '' }),
    ])
    const parser = new SseParser()
    parser.push('id: 7\n\ndata: a\n\n')
    expect(parser.lastEventId).toBe('7')
    expect(parser.push('data: b\n\n')).toEqual([event('b', { id: '7' })])
  })

  it('dispatches an event whose data is empty, but none without a data field', () => {
    expect(parse(['data\n\ndata\ndata\n\ndata:'])).toEqual([event(''), event('\n')])
    expect(parse(['event: add\nid: 3\n\n', 'data: x\n\n'])).toEqual([event('x', { id: '3' })])
  })

  it('removes exactly one space after the colon', () => {
    expect(parse(['data:test\n\ndata: test\n\ndata:  test\n\n']).map((e) => e.data)).toEqual([
      'test',
      'test',
      ' test',
    ])
  })

  it('names the event by its event field, for that event only', () => {
    expect(parse(['event: add\ndata: 1\n\ndata: 2\n\n'])).toEqual([
      event('1', { event: 'add' }),
      event('2'),
    ])
  })

  it('ends lines at CR, LF or CRLF, mixed, and split between chunks', () => {
    expect(
      parse([
        'id: 5\r\nevent: task\r\ndata: a\r\n\r',
        '\nid: 6\revent: other\rdata: b\r\r',
        'data: c\n\n',
      ]),
    ).toEqual([
      event('a', { id: '5', event: 'task' }),
      event('b', { id: '6', event: 'other' }),
      event('c', { id: '6' }),
    ])
  })

  it('decodes UTF-8 split between chunks and drops one leading BOM', () => {
    const encoded = new TextEncoder().encode('\uFEFFdata: 🚀\n\n')
    expect(parse([encoded.slice(0, 2), encoded.slice(2, 10), encoded.slice(10)])).toEqual([
      event('🚀'),
    ])
    // A second BOM is part of the first field's name, which no field has.
    expect(parse(['\uFEFF\uFEFFdata: x\n\ndata: y\n\n'])).toEqual([event('y')])
  })

  it('ignores unknown fields, field names in another case, and an id with NUL', () => {
    expect(parse(['foo: 1\nData: 2\ndata: 3\nid: a\0b\n\n'])).toEqual([event('3')])
  })

  it('takes retry of ASCII digits only, and reports it on the events that follow', () => {
    const parser = new SseParser()
    expect(parser.push('retry: 1500\n\n')).toEqual([])
    expect(parser.retry).toBe(1500)
    expect(parser.push('retry: 2s\nretry:\nretry: -1\ndata: x\n\n')).toEqual([
      event('x', { retry: 1500 }),
    ])
  })

  it('throws a RangeError when a line, or the data of one event, is over maxLength', () => {
    expect(() => parse(['data: 123456789\n'], 10)).toThrow(
      "A line is longer than the client's limit of 10 characters",
    )
    expect(() => parse(['data:12345\ndata:12345\n'], 10)).toThrow(
      "An event's data is longer than the client's limit of 10 characters",
    )
    expect(parse(['data:1234\ndata:12345\n\n'], 10)).toEqual([event('1234\n12345')])
  })
})

describe('sseEvents', () => {
  it('yields the events of an async stream of byte chunks as they complete', async () => {
    const encoder = new TextEncoder()
    async function* chunks() {
      yield encoder.encode('data: a\n')
      yield encoder.encode('\ndata: b\n\n')
    }
    const seen: string[] = []
    for await (const { data } of sseEvents(chunks())) seen.push(data)
    expect(seen).toEqual(['a', 'b'])
  })
})

describe('SseParser comments', () => {
  it('keeps each comment line for takeComments, which hands them over once', () => {
    const parser = new SseParser()
    expect(
      parser.push(': keep-alive\n\n: seq 12\n\nid: 13\nevent: created\ndata: {}\n\n'),
    ).toHaveLength(1)
    expect(parser.takeComments()).toEqual(['keep-alive', 'seq 12'])
    expect(parser.takeComments()).toEqual([])
    parser.push(':no space\r\n')
    expect(parser.takeComments()).toEqual(['no space'])
  })
})
