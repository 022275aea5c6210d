export * from "./file-spool.js";
export * from "./memory-spool.js";
export * from "./root.js";
export * from "./storage.js";
export * from "./writer-queue.js";
