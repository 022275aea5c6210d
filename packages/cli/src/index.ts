export * from "./args.js";
export * from "./inline.js";
export * from "./io.js";
export * from "./main.js";
