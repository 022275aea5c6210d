export * from "./receipt.js";
export * from "./runtime.js";
