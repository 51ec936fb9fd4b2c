import type { ExportStatus } from '@gateway/contracts';
import type { StatusMoves } from '@gateway/platform';

/**
 * Every status move of an export, by name (docs/exports.md). `start` also takes a `running` export:
 * a retry after a crash restarts it (the file is rewritten from scratch), and the attempt number it
 * takes fences off whatever the previous attempt still writes.
 */
export const EXPORT_TRANSITIONS = {
  start: { from: ['queued', 'running'], to: 'running' },
  /** Written, stored, checked: the file can be downloaded. */
  complete: { from: ['running'], to: 'completed' },
  /** An attempt failed and another is due: back in the queue. */
  requeue: { from: ['running'], to: 'queued' },
  /** The last attempt failed (or the export can never succeed). */
  fail: { from: ['queued', 'running'], to: 'failed' },
  /** The retention period passed: the file is deleted, the record stays. */
  expire: { from: ['completed'], to: 'expired' },
} as const satisfies StatusMoves<ExportStatus>;

export type ExportTransition = keyof typeof EXPORT_TRANSITIONS;
