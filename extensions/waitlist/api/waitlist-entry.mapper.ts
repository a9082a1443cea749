import type { components } from '../generated/openapi.js';
import type { WaitlistEntryRecord } from '../waitlist-entry.js';

export type WaitlistSchemas = components['schemas'];

export function toWaitlistEntry(entry: WaitlistEntryRecord): WaitlistSchemas['WaitlistEntry'] {
  return { ...entry, createdAt: entry.createdAt.toISOString() };
}
