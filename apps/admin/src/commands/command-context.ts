// Part of the public extension API: extensions' commands take the same context.
export type { CommandContext } from '#extensions-api/command-context.js';
