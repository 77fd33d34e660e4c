/**
 * A real SMTP server that accepts and counts every message, run as a child process by the
 * sending benchmark so that it does not share the service's event loop (as a real mail server
 * would not). Reports its port on start and its count when asked.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

let accepted = 0;
const server = new SMTPServer({
  disabledCommands: ['AUTH', 'STARTTLS'],
  authOptional: true,
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => undefined);
    stream.on('end', () => {
      accepted++;
      callback();
    });
  },
});
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.server.address() as AddressInfo).port }));
process.on('message', (message: string) => {
  if (message === 'count') process.send!({ accepted });
  if (message === 'stop') server.close(() => process.exit(0));
});
