import pg from 'pg';
import { EventEmitter } from 'node:events';

/**
 * One dedicated connection that LISTENs on PostgreSQL channels and re-emits notifications.
 * It reconnects after a failure; listeners also poll, so a notification missed during a
 * reconnect only delays them.
 */
export class PgNotificationListener extends EventEmitter {
  private client: pg.Client | null = null;
  private closed = false;
  private connecting: Promise<void> | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly channels: string[],
  ) {
    super();
    this.setMaxListeners(0);
  }

  start(): Promise<void> {
    this.connecting ??= this.connect();
    return this.connecting;
  }

  private async connect(): Promise<void> {
    while (!this.closed) {
      const client = new pg.Client({ connectionString: this.connectionString });
      try {
        client.on('notification', (message) => this.emit(message.channel, message.payload ?? ''));
        client.on('error', () => this.reconnectSoon(client));
        client.on('end', () => this.reconnectSoon(client));
        await client.connect();
        for (const channel of this.channels) await client.query(`LISTEN ${channel}`);
        this.client = client;
        this.emit('connected');
        return;
      } catch {
        await client.end().catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  private reconnectSoon(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    this.connecting = this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => undefined);
  }
}
