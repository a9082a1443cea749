import { connect } from 'node:net';

/** Whether a TCP connection to `address:port` is accepted. */
export function connectsTo(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
