import { DatabaseUnavailableError } from '../domain/domain-errors.js'
import type { AccessStorage } from './access-port.js'
import { AccessReads } from './access-reads.js'
import type { Backend } from './backend.js'
import { CommittedSeq } from './committed-seq.js'
import { withDeadline } from './deadline.js'
import { StorageEvents } from './events.js'
import { pruneHistory, readHistory } from './history-rows.js'
import { purgeIdempotencyKeys } from './key-purge.js'
import { ping } from './reads.js'
import type { ListFilter, Sequence, Snapshot, Storage, WriteOutcome } from './storage.js'
import { TurnRead } from './turn-read.js'
import { storageError } from './unavailable.js'
import { webhookBacklog } from './webhook-backlog-rows.js'
import {
  advanceCursor,
  claimLease,
  disableWebhook,
  dueWebhooks,
  historyAfter,
  insertDelivery,
  recordFailure,
  releaseLease,
  renewLease,
} from './webhook-lease-rows.js'
import type { WebhookStorage } from './webhook-port.js'
import {
  deleteWebhook,
  insertWebhook,
  memberAtListDeletion,
  selectDeliveries,
  selectWebhook,
  selectWebhooks,
  updateWebhook,
} from './webhook-rows.js'
import { WriteHealth } from './write-health.js'

/** The newest seq a batch's changes reached (0 when it changed nothing). */
function newestChange(outcomes: readonly WriteOutcome[]): number {
  let newest = 0
  for (const outcome of outcomes) {
    if (outcome.result === 'written' && !outcome.replayed && outcome.changed) {
      newest = Math.max(newest, outcome.seq)
    }
  }
  return newest
}

/**
 * The Storage port on a backend: every call bounded by the backend's timeout and its
 * failures sorted (DatabaseUnavailableError when a retry may work), the write path's health
 * kept from the writes themselves, commits announced to the change feed as they are
 * acknowledged.
 */
export class TaskStorage implements Storage {
  readonly kind: Backend['kind']
  readonly batchesInFlight: number
  readonly maxSnapshots: number
  readonly descriptors: number
  readonly #backend: Backend
  readonly #events: StorageEvents
  readonly #committed = new CommittedSeq()
  readonly #writeHealth: WriteHealth
  readonly #sequence: TurnRead<Sequence>
  /** The newest access seq this process has committed: a read never answers an older one. */
  #accessFloor = 0
  readonly access: AccessStorage
  readonly webhooks: WebhookStorage
  #stopWatching: (() => Promise<void>) | undefined
  #closing: Promise<void> | undefined

  constructor(backend: Backend) {
    this.#backend = backend
    this.kind = backend.kind
    this.batchesInFlight = backend.batchesInFlight
    this.maxSnapshots = backend.maxSnapshots
    this.descriptors = backend.descriptors
    this.#events = backend.events ?? new StorageEvents()
    this.#writeHealth = new WriteHealth(() => this.#guarded(backend.probeWrite()))
    // A fault reported outside any write (the writer thread died) leaves writes in doubt.
    this.#events.subscribe((event) => {
      if (event.level === 'error') this.#writeHealth.failed(new DatabaseUnavailableError())
    })
    this.#sequence = new TurnRead(
      () => this.#guarded(backend.reads.sequence()),
      ({ seq, accessSeq }) => ({
        seq: Math.max(seq, this.#committed.value),
        accessSeq: Math.max(accessSeq, this.#accessFloor),
      }),
    )
    this.access = this.#accessStorage(new AccessReads(backend.reads))
    this.webhooks = this.#webhookStorage()
  }

  #webhookStorage(): WebhookStorage {
    const guard = this.#guarded.bind(this)
    const db = this.#backend.db
    return {
      create: (record, now) => guard(insertWebhook(db, record, now)),
      list: (owner) => guard(selectWebhooks(db, owner)),
      get: (owner, id) => guard(selectWebhook(db, owner, id)),
      update: (owner, id, update, now) => guard(updateWebhook(db, owner, id, update, now)),
      delete: (owner, id) => guard(deleteWebhook(db, owner, id)),
      deliveries: (id, limit) => guard(selectDeliveries(db, id, limit)),
      due: (now, limit) => guard(dueWebhooks(db, now, limit)),
      claim: (id, holder, now, until) => guard(claimLease(db, id, holder, now, until)),
      renew: (id, holder, until) => guard(renewLease(db, id, holder, until)),
      release: (id, holder) => guard(releaseLease(db, id, holder)),
      changesAfter: (after, limit) => guard(historyAfter(db, after, limit)),
      advance: (id, holder, from, to, acknowledged) =>
        guard(advanceCursor(db, id, holder, from, to, acknowledged)),
      failed: (id, holder, failure) => guard(recordFailure(db, id, holder, failure)),
      disable: (id, holder, now) => guard(disableWebhook(db, id, holder, now)),
      backlog: () => guard(webhookBacklog(db)),
      recordDelivery: (id, delivery, keep) => guard(insertDelivery(db, id, delivery, keep)),
      memberAtListDeletion: (principal, listId, seq) =>
        guard(memberAtListDeletion(db, principal, listId, seq)),
    }
  }

  #accessStorage(reads: AccessReads): AccessStorage {
    const guard = this.#guarded.bind(this)
    return {
      memberships: (principal) => guard(reads.memberships(principal)),
      firstAccessChange: (principal, after) => guard(reads.firstAccessChange(principal, after)),
      tokenByHash: (hash) => guard(reads.tokenByHash(hash)),
      tokens: (principal) => guard(reads.tokens(principal)),
      lists: (only, after, limit) => guard(reads.lists(only, after, limit)),
      list: (id) => guard(reads.list(id)),
      members: (listId) => guard(reads.members(listId)),
      write: async (write, now, notBefore) => {
        const { outcome, newest, accessChanged } = await this.#guarded(
          this.#backend.writeAccess(write, now, notBefore),
        )
        if (accessChanged) this.#accessFloor = Math.max(this.#accessFloor, newest)
        this.#committed.raise(newest)
        return outcome
      },
    }
  }

  /**
   * Rejects with DatabaseUnavailableError where the driver's error means "retry later",
   * and when the database does not answer within the timeout.
   */
  #guarded<T>(promise: Promise<T>): Promise<T> {
    return withDeadline(promise, this.#backend.timeoutMs).catch((error: unknown) => {
      throw storageError(error)
    })
  }

  findTask(id: number) {
    return this.#guarded(this.#backend.reads.findTask(id))
  }

  readPage(filter: ListFilter, limit: number) {
    return this.#guarded(this.#backend.reads.selectPage(filter, limit))
  }

  async openSnapshot(): Promise<Snapshot> {
    const snapshot = await this.#guarded(this.#backend.openSnapshot())
    return {
      seq: snapshot.seq,
      accessSeq: snapshot.accessSeq,
      readTasks: (filter, limit) => this.#guarded(snapshot.readTasks(filter, limit)),
      readIds: (filter, limit) => this.#guarded(snapshot.readIds(filter, limit)),
      close: () => snapshot.close(),
    }
  }

  newestSeq(): Promise<number> {
    return this.#sequence.get().then(({ seq }) => seq)
  }

  sequence(): Promise<Sequence> {
    return this.#sequence.get()
  }

  changesAfter(after: number, limit: number) {
    return this.#guarded(this.#backend.reads.changesAfter(after, limit))
  }

  onCommitted(listener: (seq: number) => void): () => void {
    const stop = this.#committed.subscribe(listener)
    this.#stopWatching ??= this.#backend.watchCommits?.(this.#committed)
    return stop
  }

  async write(...[items, now, notBefore]: Parameters<Storage['write']>): Promise<WriteOutcome[]> {
    let outcomes: WriteOutcome[]
    try {
      outcomes = await this.#guarded(this.#backend.write(items, now, notBefore))
    } catch (error) {
      this.#writeHealth.failed(error)
      throw error
    }
    this.#writeHealth.succeeded()
    // The batch has committed, and seqs follow commit order: every change up to its newest
    // is final. Said at once, here, rather than waiting for the database to echo it.
    this.#committed.raise(newestChange(outcomes))
    return outcomes
  }

  purgeIdempotencyKeys(before: number, keep: number) {
    return this.#guarded(purgeIdempotencyKeys(this.#backend.db, before, keep))
  }

  taskHistory(id: number, before: number, limit: number) {
    return this.#guarded(readHistory(this.#backend.reads, id, before, limit))
  }

  pruneHistory(before: number) {
    return this.#guarded(pruneHistory(this.#backend.db, before))
  }

  countTasks() {
    return this.#guarded(this.#backend.reads.countTasks())
  }

  ping() {
    return this.#guarded(ping(this.#backend.db)).catch(() => false)
  }

  writable() {
    return this.#writeHealth.writable()
  }

  onEvent(listener: Parameters<Storage['onEvent']>[0]) {
    return this.#events.subscribe(listener)
  }

  close(): Promise<void> {
    // Once: a second close (the app's and a test's, say) waits for the first rather than
    // ending the pools again, which node-postgres rejects.
    this.#closing ??= (async () => {
      await this.#stopWatching?.()
      await this.#backend.close()
    })()
    return this.#closing
  }
}
