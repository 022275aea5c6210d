export * from "./preview-tap.js";
export * from "./utf8-decoder.js";
