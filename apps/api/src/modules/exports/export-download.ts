import { StreamableFile } from '@nestjs/common';
import type { ExportDownload } from '@gateway/domain/exports';

export const EXPORT_CREATE_DESCRIPTION =
  'Queues a CSV export of one kind of object — `payments`, `refunds`, `ledger` (wallet entries), `customers`, `transfers`, `settlements`, `disputes` or `invoices` — created in [`from`, `to`) ' +
  '(ISO 8601; at most 366 days by default). Optional filters: `currency` (payments, ledger, transfers, settlements) and `status` (one of the type\'s statuses; not for ledger and customers). ' +
  'Answers 202 with the export `queued`; it runs in the background, and `GET /exports/{reference}` shows `rows_done` / `rows_total` and `progress` while it runs. ' +
  'Each row has the fields of that object in its list response, in the same order as the list (newest first); nested objects become dotted columns (`fees.platform`), ' +
  'metadata and repeated fields compact JSON, amounts exact decimal text with two places ("1234.50"), times ISO 8601 UTC; text starting with = + - @ is prefixed with a single quote. ' +
  'Files are deleted 7 days after completion (the export then reads `expired`). Above 100,000 rows the account owner is also e-mailed a link to the portal\'s Reports page when the file is ready. ' +
  'Viewers and API keys with `exports:write` may request exports: an export only reads.';

export const EXPORT_DOWNLOAD_DESCRIPTION =
  'Streams the CSV file of a `completed` export (`text/csv`, with Content-Disposition and Content-Length). 409 `export_not_ready` while it is queued or running, or when it failed; ' +
  '410 `export_expired` once its file was deleted; 404 `export_not_found` for another account\'s or the other mode\'s export.';

/** The download as the framework's raw stream (no JSON envelope): CSV, attachment, exact length. */
export function downloadFile(file: ExportDownload): StreamableFile {
  return new StreamableFile(file.body, { type: 'text/csv; charset=utf-8', disposition: `attachment; filename="${file.fileName}"`, length: file.size });
}
