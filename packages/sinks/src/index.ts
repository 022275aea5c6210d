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
  MAX_BUNDLE_RECEIPT_BYTES,
  MAX_MANIFEST_BYTES,
  OMISSION_REASONS,
  type OmissionReason,
  RECEIPT_FILE,
  streamFileName,
} from "./bundle.js";
export {
  type ExportBundleOptions,
  exportBundle,
  type WriteBundleOptions,
  writeBundle,
} from "./bundle-export.js";
export {
  createStager,
  type EntrySink,
  type ImportBundleOptions,
  type ImportReport,
  importBundle,
  type PublishStagedOptions,
  publishStaged,
  type Stager,
} from "./bundle-import.js";
export {
  type BundleWriter,
  createDirBundleWriter,
  createTarBundleWriter,
  type DirBundleWriterOptions,
  type TarBundleWriterOptions,
} from "./bundle-writer.js";
export {
  type ShareCaptureOptions,
  type ShareReport,
  shareCapture,
} from "./capture-share.js";
export {
  type CaptureCondition,
  type CaptureStateOptions,
  type CaptureStatus,
  readCaptureState,
} from "./capture-state.js";
export {
  COMPLETION_MARKER,
  completionSeen,
  takeCompletion,
} from "./completion-marker.js";
export {
  crashedFrom,
  createDataScan,
  type DataScan,
  type StoredData,
  skeletonReceipt,
} from "./crash-receipt.js";
export {
  CURSORS_DIR,
  loadCursor,
  saveCursor,
} from "./cursor-file.js";
export {
  type ExitRecord,
  ExitRecordSchema,
  readExitRecord,
} from "./exit-record.js";
export {
  type FileLockOptions,
  withFileLock,
} from "./file-lock.js";
export {
  createFileStore,
  FILE_STORE,
  type FileStoreOptions,
} from "./file-store.js";
export {
  removeStaleStaging,
  STAGING_PREFIX,
  stagingName,
  stagingOwner,
} from "./import-staging.js";
export {
  JOB_FILE,
  type JobRecord,
  JobRecordSchema,
  readJobRecord,
  writeJobRecord,
} from "./job-record.js";
export {
  MAX_JSON_BYTES,
  readJsonNoFollow,
} from "./json-file.js";
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
} from "./owner.js";
export { OwnerFileSchema, OwnerSchema, ReservationSchema } from "./record-schemas.js";
export {
  listCaptures,
  type RecoveryReport,
  reconcileCapture,
  recoverRoot,
} from "./recovery.js";
export {
  createRootAllowance,
  keptOnDisk,
  type Reservation,
  ROOT_QUOTA_DIR,
  type RootAllowance,
  type RootAllowanceOptions,
  reconcileRootQuota,
  reservationOf,
  rootQuotaUsage,
} from "./root-quota.js";
// Everything a capture needs (its own explicit list).
export * from "./runtime.js";
export {
  createStateWatch,
  type StateWatch,
  type StateWatchOptions,
  stateSignature,
} from "./state-watch.js";
export { WriterQueueOptionsSchema } from "./writer-queue-schema.js";
