export * from "./file-spool.js";
export * from "./line-index.js";
export * from "./root.js";
export * from "./storage.js";
export * from "./writer-queue.js";
