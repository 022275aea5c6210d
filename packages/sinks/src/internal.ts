/**
 * `@spool/sinks/internal`: what `@spool/cli` uses from sinks and library users do not: the
 * job record a background job's supervisor writes, and the root-quota books `spool du`
 * reports. Not part of the public API: it may change in any release, whatever the version
 * says.
 *
 * @example
 * ```ts
 * import { ROOT_QUOTA_DIR } from "@spool/sinks/internal";
 * ROOT_QUOTA_DIR; // ".spool-quota"
 * ```
 */
export { ROOT_QUOTA_DIR, rootQuotaUsage } from "./quota/root-quota.js";
export { writeJobRecord } from "./store/job-record.js";
