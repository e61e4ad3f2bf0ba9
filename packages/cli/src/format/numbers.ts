const format = new Intl.NumberFormat('en-US')

/** `12,345`: a count as the CLI prints it, in every locale alike. */
export function formatNumber(value: number): string {
  return format.format(value)
}
