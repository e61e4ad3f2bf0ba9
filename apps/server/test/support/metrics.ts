/** One sample of the Prometheus text format: its name, labels and value. */
export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

/** Every sample of a /metrics body (comment lines skipped; label values unescaped). */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match) continue
    const labels: Record<string, string> = {}
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[key as string] = (value as string).replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c))
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) })
  }
  return samples
}

/** The samples named `name` whose labels include `labels`. */
export function samplesOf(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): Sample[] {
  return samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )
}

/** The value of the one sample named `name` with these labels; undefined when there is none. */
export function sampleValue(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = samplesOf(samples, name, labels)
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match`)
  return found[0]?.value
}
