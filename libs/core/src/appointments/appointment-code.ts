import { randomBytes } from 'node:crypto';

/** No 0/O and 1/I: the code is read aloud and typed at the desk. 32 symbols, so 5 bits each. */
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const APPOINTMENT_CODE_LENGTH = 8;

/**
 * The code a client shows at the desk. 32^8 ≈ 10^12 values make a clash within one business
 * unlikely; the unique index appointments_code_key catches the rest and the insert draws again.
 */
export function generateAppointmentCode(): string {
  let code = '';
  for (const byte of randomBytes(APPOINTMENT_CODE_LENGTH)) code += ALPHABET[byte & 31];
  return code;
}
