export * from "./capture-state.js";
export * from "./file-lock.js";
export * from "./json-file.js";
export * from "./owner.js";
export * from "./recovery.js";
export * from "./root-quota.js";
export * from "./runtime.js";
export * from "./writer-queue-schema.js";
