import { generateKeyBetween } from 'fractional-indexing'
import type { OrderWindow, Placed } from './write-port.js'

/** A window the batch needs and has not read: planning starts over with it read. */
export class WindowNeeded extends Error {
  override name = 'WindowNeeded'
  constructor(readonly window: Omit<OrderWindow, 'size'>) {
    super('The batch needs a stretch of a manual order it has not read.')
  }
}

/** The key of a window, to tell whether it was read. */
const windowKey = ({ listId, at }: Omit<OrderWindow, 'size'>) =>
  `${listId}:${typeof at === 'string' ? at : at.around}`

/**
 * The stretches of lists' manual orders a batch has read, as its writes change them: tasks
 * placed, moved away, deleted. A window of `size` places (more than the tasks the batch may
 * move) on each side of a task or at an end still holds the true neighbours however many of
 * its tasks the batch moves away, and every place the batch makes falls between two places
 * it knows (two read, or one read and one made): so each new position is computed from the
 * true neighbours, with the `fractional-indexing` keys every other place uses.
 */
export class ListOrder {
  /** Each list's known places, ascending by position. */
  readonly #lists = new Map<number, Placed[]>()
  /** Where each known task is. */
  readonly #where = new Map<number, Placed>()
  readonly #read = new Set<string>()
  /** Tasks whose place the batch made: their neighbours are known whatever was read. */
  readonly #made = new Set<number>()

  constructor(placed: readonly Placed[], windows: readonly Omit<OrderWindow, 'size'>[]) {
    for (const window of windows) this.#read.add(windowKey(window))
    for (const place of placed)
      this.#put({ ...place, id: Number(place.id), listId: Number(place.listId) })
  }

  /** The position for a task placed last in `listId`. */
  bottom(listId: number): string {
    this.#need({ listId, at: 'bottom' })
    return generateKeyBetween(this.#of(listId).at(-1)?.position ?? null, null)
  }

  /** The position for a task placed first in `listId`. */
  top(listId: number): string {
    this.#need({ listId, at: 'top' })
    return generateKeyBetween(null, this.#of(listId)[0]?.position ?? null)
  }

  /**
   * The position for a task placed just before (or after) task `ref`, which the caller knows
   * is live in `listId` now (the batch's own moves included).
   */
  beside(listId: number, ref: number, side: 'before' | 'after'): string {
    // Around a place the batch made, its neighbours are known whatever was read.
    if (!this.#made.has(ref)) this.#need({ listId, at: { around: ref } })
    const list = this.#of(listId)
    const index = list.findIndex((entry) => entry.id === ref)
    const place = list[index]
    if (place === undefined) throw new Error(`Task ${ref} is not in the order of list ${listId}.`)
    const neighbour = list[side === 'before' ? index - 1 : index + 1]?.position ?? null
    return side === 'before'
      ? generateKeyBetween(neighbour, place.position)
      : generateKeyBetween(place.position, neighbour)
  }

  /** Task `id` is now at `position` in `listId` (placed, or moved there). */
  place(id: number, listId: number, position: string): void {
    this.remove(id)
    this.#made.add(id)
    this.#put({ id, listId, position })
  }

  /** Task `id` has left the order (moved elsewhere, or deleted). */
  remove(id: number): void {
    const at = this.#where.get(id)
    if (at === undefined) return
    this.#where.delete(id)
    const list = this.#of(at.listId)
    list.splice(
      list.findIndex((entry) => entry.id === id),
      1,
    )
  }

  #need(window: Omit<OrderWindow, 'size'>): void {
    if (!this.#read.has(windowKey(window))) throw new WindowNeeded(window)
  }

  #of(listId: number): Placed[] {
    let list = this.#lists.get(listId)
    if (list === undefined) {
      list = []
      this.#lists.set(listId, list)
    }
    return list
  }

  #put(place: Placed): void {
    if (this.#where.has(place.id)) return
    const list = this.#of(place.listId)
    let index = list.length
    while (index > 0 && (list[index - 1] as Placed).position > place.position) index--
    list.splice(index, 0, place)
    this.#where.set(place.id, place)
  }
}
