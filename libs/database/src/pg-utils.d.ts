// node-postgres's own module for turning a JavaScript value into what a statement's parameter
// carries (dates, buffers, arrays, objects); it ships no types of its own.
declare module 'pg/lib/utils.js' {
  export function prepareValue(value: unknown): unknown;
}
