import type { List, TasklaneClient } from '@tasklane/client'
import { messageOf } from './messages.js'

/**
 * The lists beside the tasks (GET /lists): a button for every list, and "All lists" first;
 * the chosen one is `aria-current`. Choosing one calls `chose` with its id (undefined: all).
 */
export class ListSwitcher {
  #lists: readonly List[] = []
  #chosen: number | undefined
  /** The lists were read with the credential in use (only once a listing succeeded: no 401 twice). */
  #read = false
  /** The lists shown were read with the credential in use. */
  #answered = false

  constructor(
    readonly into: HTMLUListElement,
    readonly state: HTMLElement,
    readonly chose: (list: number | undefined) => void,
  ) {
    into.addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-list]')
      if (button === null) return
      const list = button.dataset.list === '' ? undefined : Number(button.dataset.list)
      this.#chosen = list
      this.#render()
      chose(list)
    })
  }

  /** The list chosen (undefined: all of them). */
  get chosen(): number | undefined {
    return this.#chosen
  }

  /** The name of list `id`, if it is known. */
  nameOf(id: number | undefined): string | undefined {
    return this.#lists.find((list) => list.id === id)?.name
  }

  /** The lists shown, ascending id. */
  get all(): readonly List[] {
    return this.#lists
  }

  /** The lists were read with the credential in use. */
  get loaded(): boolean {
    return this.#answered
  }

  /** List `id` is among those shown. */
  has(id: number): boolean {
    return this.#lists.some((list) => list.id === id)
  }

  /** Marks list `id` (undefined: all lists) as the one chosen, without calling `chose`. */
  select(id: number | undefined): void {
    this.#chosen = id
    this.#render()
  }

  /** Reads the lists (as `load`), unless they were read already with the credential in use. */
  loadOnce(client: TasklaneClient): void {
    if (this.#read) return
    this.#read = true
    void this.load(client)
  }

  /** Another credential is in use: the next `loadOnce` reads the lists again. */
  forget(): void {
    this.#read = false
    this.#answered = false
  }

  /** Reads the lists the caller can read, and shows them; false when they could not be read. */
  async load(client: TasklaneClient): Promise<boolean> {
    let read = true
    try {
      this.#lists = await client.listLists()
      this.#answered = true
      this.state.textContent = ''
    } catch (error) {
      this.#lists = []
      this.#answered = false
      this.state.textContent = `Could not read the lists: ${messageOf(error)}`
      read = false
    }
    this.#render()
    return read
  }

  #render(): void {
    const entries: { id: number | undefined; name: string }[] = [
      { id: undefined, name: 'All lists' },
      ...this.#lists,
    ]
    this.into.replaceChildren(
      ...entries.map(({ id, name }) => {
        const item = document.createElement('li')
        const button = Object.assign(document.createElement('button'), {
          type: 'button',
          className: 'list-choice',
          textContent: name,
        })
        button.dataset.list = id === undefined ? '' : String(id)
        if (id === this.#chosen) button.setAttribute('aria-current', 'true')
        item.append(button)
        return item
      }),
    )
  }
}
