// The change feed on the wire: the kinds of change and the event stream GET /tasks/events sends.
import { type Static, Type } from '@sinclair/typebox'
import { DeletedTask, ref, Task } from './task.js'

/** What events of GET /tasks/events look like on the wire. */
const TASK_EVENT_EXAMPLE = [
  'id: 7\nevent: created\ndata: {"id":7,"name":"Write docs","tag":"docs","status":"open","version":1,"createdAt":"2026-11-25T09:30:00.000Z","updatedAt":"2026-11-25T09:30:00.000Z"}\n\n',
  'id: 8\nevent: updated\ndata: {"id":7,"name":"Write docs","tag":"docs","status":"done","version":2,"createdAt":"2026-11-25T09:30:00.000Z","updatedAt":"2026-11-25T09:31:00.000Z"}\n\n',
  'id: 9\nevent: deleted\ndata: {"id":7,"version":2}\n\n',
].join('')

/** The kinds of change the feed reports. */
export const ChangeType = Type.Union(
  [Type.Literal('created'), Type.Literal('updated'), Type.Literal('deleted')],
  { description: 'What happened to the task: created, updated or deleted.' },
)
/** The kinds of change the feed reports. */
export type ChangeType = Static<typeof ChangeType>

/**
 * One event of the stream as JSON Schema sees a text/event-stream once parsed (the form of
 * OpenAPI 3.2's itemSchema; 3.1 has no place for it but `contentSchema`): its fields, `data`
 * being JSON text of the task after the change, or of a deleted task's id and version.
 */
const TaskEvent = Type.Object({
  id: Type.String({ description: 'The seq of the change.', examples: ['7'] }),
  event: ChangeType,
  data: Type.String({
    contentMediaType: 'application/json',
    contentSchema: Type.Union([ref(Task), ref(DeletedTask)]),
  }),
})

/** The 200 body of GET /tasks/events: a Server-Sent Events stream, one event per change. */
export const TaskEventStream = Type.String({
  contentMediaType: 'text/event-stream',
  contentSchema: Type.Array(TaskEvent),
  description:
    'Server-Sent Events. Each change is one event: "id: <seq>", "event: created|updated|deleted", "data: <Task JSON>" (for deleted: {"id","version"}), then a blank line. Events come in ascending seq order: first the backlog (each task changed since after, once, in its latest state; deleted ones as deleted), then each change once committed. With tag or status the view stays exact: a task that stops matching comes as deleted, one that starts matching as created. A comment line ": keep-alive" comes at least every 15 s; a comment line ": seq <n>" each time the subscriber has been sent every change of its view up to seq n (a copy built from the events is then exact at n). The stream ends when the server shuts down; reconnect with Last-Event-ID.',
  examples: [TASK_EVENT_EXAMPLE],
})
