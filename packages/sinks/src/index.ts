export {
  arrivedReceipt,
  BUNDLE_FILE_NAMES,
  BUNDLE_FORMAT,
  type BundleCapture,
  BundleCaptureSchema,
  type BundleFile,
  type BundleFileName,
  BundleFileSchema,
  type BundleManifest,
  BundleManifestSchema,
  bundleFileOf,
  bundlePath,
  bundleReceipt,
  type CopiedStream,
  indexFileName,
  MANIFEST_FILE,
  MAX_BUNDLE_CAPTURES,
  MAX_BUNDLE_ENTRIES,
  MAX_BUNDLE_RECEIPT_BYTES,
  MAX_MANIFEST_BYTES,
  MAX_TRAILING_BYTES,
  OMISSION_REASONS,
  type OmissionReason,
  RECEIPT_FILE,
  streamFileName,
} from "./bundle/bundle.js";
export {
  type ExportBundleOptions,
  exportBundle,
  type WriteBundleOptions,
  writeBundle,
} from "./bundle/bundle-export.js";
export {
  createStager,
  type EntrySink,
  type ImportBundleOptions,
  type ImportReport,
  importBundle,
  type PublishStagedOptions,
  publishStaged,
  type Stager,
} from "./bundle/bundle-import.js";
export {
  type BundleWriter,
  createDirBundleWriter,
  createTarBundleWriter,
  type DirBundleWriterOptions,
  type TarBundleWriterOptions,
} from "./bundle/bundle-writer.js";
export {
  type ShareCaptureOptions,
  type ShareReport,
  shareCapture,
} from "./bundle/capture-share.js";
export {
  removeStaleStaging,
  STAGING_PREFIX,
  stagingName,
  stagingOwner,
} from "./bundle/import-staging.js";
export {
  MAX_JSON_BYTES,
  readJsonNoFollow,
} from "./file/json-file.js";
export {
  type FileLockOptions,
  withFileLock,
} from "./lock/file-lock.js";
export { isLockBusy } from "./lock/lock-busy.js";
export {
  currentOwner,
  isOwnerAlive,
  OWNER_FILE,
  type Owner,
  type OwnerFile,
  ownerFileOf,
  ownerOf,
  processStart,
  readOwnerFile,
} from "./lock/owner.js";
export { OwnerFileSchema, OwnerSchema, ReservationSchema } from "./lock/record-schemas.js";
export {
  createRootAllowance,
  keptOnDisk,
  type Reservation,
  type RootAllowance,
  type RootAllowanceOptions,
  reconcileRootQuota,
  reservationOf,
} from "./quota/root-quota.js";
export {
  crashedFrom,
  createDataScan,
  type DataScan,
  type StoredData,
  skeletonReceipt,
} from "./recovery/crash-receipt.js";
export {
  listCaptureStatuses,
  reconcileCapture,
  recoverRoot,
} from "./recovery/recovery.js";
// Everything a capture needs (its own explicit list).
export * from "./runtime.js";
export {
  type CaptureStateOptions,
  type CaptureStatus,
  readCaptureState,
} from "./store/capture-dir-state.js";
export {
  COMPLETION_MARKER,
  completionSeen,
  takeCompletion,
} from "./store/completion-marker.js";
export {
  CURSORS_DIR,
  loadCursor,
  saveCursor,
} from "./store/cursor-file.js";
export {
  type ExitRecord,
  ExitRecordSchema,
  readExitRecord,
} from "./store/exit-record.js";
export {
  createFileStore,
  FILE_STORE,
  type FileStoreOptions,
} from "./store/file-store.js";
export {
  JOB_FILE,
  type JobRecord,
  JobRecordSchema,
  readJobRecord,
} from "./store/job-record.js";
export {
  createStateWatch,
  type StateWatch,
  type StateWatchOptions,
  stateSignature,
} from "./store/state-watch.js";
export { WriterQueueOptionsSchema } from "./writer/writer-queue-schema.js";
