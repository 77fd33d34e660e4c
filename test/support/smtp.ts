import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface TestSmtp {
  url: string;
  messages: ParsedMail[];
  /** Each message as the server received it (after the DATA dot-stuffing is undone), beside its parse. */
  received: Array<{ raw: Buffer; mail: ParsedMail }>;
  stop(): Promise<void>;
}

/**
 * A real SMTP server on a loopback port that keeps every message it accepts. Recipients at
 * bounce.test are refused permanently (550), at later.test temporarily (451), and any other
 * temporarily while `refusing(recipient)` says so.
 */
export async function startSmtpServer(refusing: (recipient: string) => boolean = () => false): Promise<TestSmtp> {
  const messages: ParsedMail[] = [];
  const received: TestSmtp['received'] = [];
  const server = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@bounce.test'))
        return callback(Object.assign(new Error('Mailbox unknown'), { responseCode: 550 }));
      if (address.address.endsWith('@later.test') || refusing(address.address))
        return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
      callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((mail) => {
            messages.push(mail);
            received.push({ raw, mail });
            callback();
          })
          .catch(callback);
      });
    },
  });
  // A client that dies mid-session (a crash test's SIGKILL) resets its connection: not the server's failure.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    received,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
