export { ExportsModule } from './exports.module';
export { EXPORT_MAX_ATTEMPTS, EXPORT_TASK, ExportsService, type ExportDownload, type ExportRequester, type NewExport } from './exports.service';
export { ExportRunner, EXPORT_STALL_AFTER_MS } from './export-runner.service';
export { ExportExpiryService } from './export-expiry.service';
export { exportProgress, toExportResponse } from './export.mapper';
export { EXPORT_COLUMNS, toCsvCells, type CellKind, type ExportColumn } from './export-columns';
export { ExportStorage, LocalDirectoryStorage, S3Storage, exportStorageFor, type StoredFileWriter } from './export-storage';
export type { ExportEntity as Export } from './export.entity';
