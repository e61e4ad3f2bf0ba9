import { describe, expect, it } from 'vitest'
import { writeCostTable } from '../src/write-cost.js'

describe('writeCostTable', () => {
  it('prints each part with its price, whole − without, per kind of write', () => {
    const table = writeCostTable([
      {
        id: 'whole',
        label: 'the storage whole',
        cpuMicros: { create: 60, rename: 100, delete: 50 },
      },
      {
        id: 'without-search',
        label: '  without search',
        cpuMicros: { create: 52.5, rename: 80, delete: 51 },
      },
    ])
    const lines = table.split('\n')
    expect(lines[1]).toMatch(/^storage\s+create\s+rename\s+delete$/)
    expect(lines[2]).toMatch(/^the storage whole\s+60\.0\s+100\.0\s+50\.0$/)
    // A part that saves nothing shows a negative price, as measured.
    expect(lines[3]).toMatch(
      /^ {2}without search\s+52\.5 \(7\.5\)\s+80\.0 \(20\.0\)\s+51\.0 \(-1\.0\)$/,
    )
  })
})
