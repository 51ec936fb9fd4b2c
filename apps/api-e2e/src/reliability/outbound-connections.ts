import { isIP, Socket } from 'node:net';

/**
 * Every TCP connection this process opens (the API under test runs in it), by the address it
 * actually connects to: an IP-literal host at once, a host name once its lookup answered — a
 * lookup the URL guard refuses opens no connection and is not recorded.
 */
export class OutboundConnections {
  readonly addresses: Array<{ address: string; port: number }> = [];
  private readonly original = Socket.prototype.connect;

  start(): void {
    const record = this.addresses;
    const original = this.original;
    Socket.prototype.connect = function (this: Socket, ...args: unknown[]) {
      // net.connect() passes its normalised arguments as one array ([options, callback]).
      const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
      const options = (typeof first === 'object' && first !== null ? first : { port: first, host: args[1] }) as { host?: string; port?: number | string; path?: string };
      if (!options.path) {
        const host = options.host ?? 'localhost';
        const port = Number(options.port);
        if (isIP(host.replace(/^\[|\]$/g, ''))) record.push({ address: host, port });
        else this.once('lookup', (error: Error | null, address: string) => error || record.push({ address, port }));
      }
      return original.apply(this, args as Parameters<Socket['connect']>);
    } as Socket['connect'];
  }

  stop(): void {
    Socket.prototype.connect = this.original;
  }

  /** Connections to anything but this machine's loopback addresses. */
  leavingTheMachine(): Array<{ address: string; port: number }> {
    return this.addresses.filter(({ address }) => !/^(127\.|::1$|::ffff:127\.)/.test(address.replace(/^\[|\]$/g, '')));
  }

  to(port: number): Array<{ address: string; port: number }> {
    return this.addresses.filter((a) => a.port === port);
  }
}
