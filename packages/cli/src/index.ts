export * from "./args.js";
export * from "./cursor-name.js";
export * from "./inline.js";
export * from "./io.js";
export * from "./job-group.js";
export * from "./main.js";
export * from "./supervisor-launch.js";
