import { writeFileSync } from 'node:fs'
import { crc32 } from 'node:zlib'
import type { Browser, Page } from 'playwright-core'

/**
 * Frames of two tabs side by side, written as one animated PNG (APNG, which browsers and
 * GitHub play) when `path` is given; without it, nothing is taken. No image tool needed:
 * Chromium composes each frame, and the frames' PNG chunks are rewritten into an APNG.
 */
export class Recording {
  readonly #frames: Buffer[] = []
  #stage: Page | undefined

  constructor(
    readonly browser: Browser,
    readonly path: string | undefined,
    /** Each tab is shown from the top of this element down, this high (every frame the same size). */
    readonly clip: { readonly from: string; readonly height: number },
  ) {}

  /** Takes a frame: `left` and `right` as they are now, under `caption`. */
  async frame(left: Page, right: Page, caption: string): Promise<void> {
    if (this.path === undefined) return
    const shots = await Promise.all([left, right].map((page) => this.#shoot(page)))
    this.#stage ??= await (await this.browser.newContext()).newPage()
    // about:blank has no CSP: the frame is laid out with inline styles and data: URLs.
    const images = shots.map((png) => `<img src="data:image/png;base64,${png.toString('base64')}">`)
    await this.#stage.setViewportSize({ width: 2400, height: 1600 })
    await this.#stage.setContent(
      `<body style="margin:0"><div id="frame" style="display:inline-block;background:#57606a;font:600 18px system-ui;color:#fff">
        <p style="margin:0;padding:8px 12px">${caption}</p>
        <div style="display:flex;gap:8px;padding:0 8px 8px">${images.join('')}</div></div></body>`,
    )
    this.#frames.push(await this.#stage.locator('#frame').screenshot())
  }

  async #shoot(page: Page): Promise<Buffer> {
    const top = await page.locator(this.clip.from).evaluate((e) => e.getBoundingClientRect().top)
    const width = page.viewportSize()?.width ?? 0
    return page.screenshot({
      clip: { x: 0, y: Math.max(0, top - 12), width, height: this.clip.height },
    })
  }

  /** Writes the frames, each shown for `delayMs`, looping. */
  async save(delayMs: number): Promise<void> {
    await this.#stage?.context().close()
    if (this.path !== undefined && this.#frames.length > 0)
      writeFileSync(this.path, apng(this.#frames, delayMs))
  }
}

interface Chunk {
  readonly type: string
  readonly data: Buffer
}

function chunksOf(png: Buffer): Chunk[] {
  const chunks: Chunk[] = []
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at)
    chunks.push({
      type: png.toString('latin1', at + 4, at + 8),
      data: png.subarray(at + 8, at + 8 + length),
    })
    at += 12 + length
  }
  return chunks
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

const u32 = (...values: number[]) => {
  const out = Buffer.alloc(4 * values.length)
  for (const [i, value] of values.entries()) out.writeUInt32BE(value, 4 * i)
  return out
}

/** PNGs of the same size and kind as one APNG: the first is also the still image. */
function apng(frames: readonly Buffer[], delayMs: number): Buffer {
  const first = chunksOf(frames[0] as Buffer)
  const header = first.find((c) => c.type === 'IHDR') as Chunk
  const width = header.data.readUInt32BE(0)
  const height = header.data.readUInt32BE(4)
  const out = [(frames[0] as Buffer).subarray(0, 8), chunk('IHDR', header.data)]
  out.push(chunk('acTL', u32(frames.length, 0)))
  let sequence = 0
  frames.forEach((png, index) => {
    const control = Buffer.concat([u32(sequence++, width, height, 0, 0), Buffer.alloc(6)])
    control.writeUInt16BE(delayMs, 20)
    control.writeUInt16BE(1000, 22)
    out.push(chunk('fcTL', control))
    for (const { type, data } of chunksOf(png)) {
      if (type !== 'IDAT') continue
      out.push(
        index === 0 ? chunk('IDAT', data) : chunk('fdAT', Buffer.concat([u32(sequence++), data])),
      )
    }
  })
  out.push(chunk('IEND', Buffer.alloc(0)))
  return Buffer.concat(out)
}
