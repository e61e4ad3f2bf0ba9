import type { Task, TaskPatch } from '@tasklane/client'
import { priorityInWords } from './priority.js'

/** What an edit did, in words, for the live region: `Renamed task #7 to “Ship it”. Task #7: High priority.` */
export function describeEdit(task: Task, patch: TaskPatch): string {
  const said = []
  if (patch.name !== undefined) said.push(`Renamed task #${task.id} to “${patch.name}”.`)
  if (patch.tag === null) said.push(`Removed the tag of task #${task.id}.`)
  else if (patch.tag !== undefined) said.push(`Tagged task #${task.id} “${patch.tag}”.`)
  if (patch.notes === null) said.push(`Removed the notes of task #${task.id}.`)
  else if (patch.notes !== undefined) said.push(`Saved the notes of task #${task.id}.`)
  if (patch.due === null) said.push(`Task #${task.id} is due no more.`)
  else if (patch.due !== undefined) said.push(`Task #${task.id} is due ${patch.due}.`)
  if (patch.priority !== undefined)
    said.push(`Task #${task.id}: ${priorityInWords(patch.priority ?? 0) || 'no priority'}.`)
  return said.join(' ')
}
