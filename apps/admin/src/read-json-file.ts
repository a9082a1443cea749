import { readFile } from 'node:fs/promises';
import { DomainError } from '#core/errors/domain-error.js';

/** Reads a JSON file named on the command line; a missing or malformed file is the caller's mistake. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new DomainError('VALIDATION_FAILED', `Cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new DomainError('VALIDATION_FAILED', `${path} is not valid JSON: ${(error as Error).message}`);
  }
}
