export * from "./allot.js";
