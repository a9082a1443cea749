import { randomBytes } from 'node:crypto';

/**
 * Names under which a connection prepares the declared statements. The embedded PostgreSQL of
 * `npm start` (PGlite) is one session shared by every connection of every process (the API, an
 * admin command beside it), so a name must differ per process and per connection: a random
 * token of the process, then the connection's number. On a real server each connection has its
 * own names anyway, and the suffix costs nothing.
 */
const processToken = randomBytes(4).toString('hex');
const connectionNumbers = new WeakMap<object, number>();
let lastConnectionNumber = 0;

export function preparedNameOn(connection: object, statementName: string): string {
  let number = connectionNumbers.get(connection);
  if (number === undefined) {
    number = ++lastConnectionNumber;
    connectionNumbers.set(connection, number);
  }
  return `${statementName}_${processToken}_${number}`;
}
