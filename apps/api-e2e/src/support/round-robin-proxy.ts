import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A load balancer on 127.0.0.1 for tests: each HTTP request goes to the next backend in turn
 * (per request, not per connection, so one client's keep-alive connection still reaches every
 * instance). Method, path, headers and body are passed on and the answer streamed back as it
 * came (a redirect stays a redirect). Counts the requests each backend was given.
 */
export class RoundRobinProxy {
  /** Requests handed to each backend, in the order of `backends`. */
  served: number[];
  private next = 0;
  private server?: Server;
  private readonly agent = new Agent({ keepAlive: true });

  constructor(private backends: string[]) {
    this.served = backends.map(() => 0);
  }

  async start(): Promise<string> {
    this.server = createServer((incoming, answer) => {
      const index = this.next++ % this.backends.length;
      this.served[index] += 1;
      const target = new URL(this.backends[index]);
      const upstream = request(
        { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers, agent: this.agent },
        (response) => {
          answer.writeHead(response.statusCode ?? 502, response.headers);
          response.pipe(answer);
        },
      );
      upstream.on('error', (error) => {
        // Said, so a test that sees a 502 or a dropped answer can tell the proxy's side from the API's.
        process.stderr.write(`round-robin proxy: ${incoming.method} ${incoming.url?.split('?')[0]} to ${target.host}: ${error.message}\n`);
        if (answer.headersSent) answer.destroy();
        else answer.writeHead(502).end();
      });
      incoming.pipe(upstream);
    });
    // Idle client connections stay open longer than any client keeps one (undici: 4 s), as a load
    // balancer's do: with Node's default of 5 s, a client could send on a connection the proxy was
    // closing at that moment and see it dropped.
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Replaces the instances behind the proxy (and starts counting afresh). */
  route(backends: string[]): void {
    this.backends = backends;
    this.served = backends.map(() => 0);
    this.next = 0;
  }

  close(): Promise<void> {
    this.agent.destroy();
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
