import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { currentRequestId } from '@gateway/platform';
import { request } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { registerRequestScope } from './request-scope.hook';

/** Reads the request scope after real asynchronous work, as a service writing a row would. */
@Controller('scope')
class ScopeProbeController {
  @Get()
  async get(): Promise<{ seen: string | null }> {
    await delay(5);
    return { seen: currentRequestId() };
  }

  @Post()
  async post(@Body() body: unknown): Promise<{ seen: string | null; body: unknown }> {
    await new Promise((resolve) => setImmediate(resolve));
    return { seen: currentRequestId(), body };
  }
}

@Module({ controllers: [ScopeProbeController] })
class ProbeModule {}

describe('the request scope', () => {
  let app: NestFastifyApplication;
  let port: number;
  let sequence = 0;

  beforeAll(async () => {
    const adapter = new FastifyAdapter({ genReqId: () => `req_probe${++sequence}`, logger: false });
    registerRequestScope(adapter.getInstance());
    adapter.getInstance().addHook('onRequest', (req, reply, done) => {
      reply.header('x-request-id', req.id);
      done();
    });
    app = await NestFactory.create<NestFastifyApplication>(ProbeModule, adapter, { logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.getHttpServer().address() as { port: number }).port;
  });
  afterAll(() => app.close());

  it('is the id of the request a Nest handler is serving, after an await', async () => {
    const [a, b] = await Promise.all([fetch(`http://127.0.0.1:${port}/scope`), fetch(`http://127.0.0.1:${port}/scope`)]);
    for (const res of [a, b]) expect(await res.json()).toEqual({ seen: res.headers.get('x-request-id') });
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('survives body parsing, even of a body that arrives in pieces', async () => {
    // The body's second half is sent only once the first has been read: the handler runs from a
    // later socket read than the one that started the request.
    const answer = await new Promise<{ id: string | undefined; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/scope', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '10' } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ id: res.headers['x-request-id'] as string | undefined, body: text }));
      });
      req.on('error', reject);
      req.write('{"n":');
      setTimeout(() => req.end('1234}'), 50);
    });
    expect(JSON.parse(answer.body)).toEqual({ seen: answer.id, body: { n: 1234 } });
  });

  it('is empty outside a request', () => {
    expect(currentRequestId()).toBeNull();
  });
});
