import type { FastifyInstance } from 'fastify';
import type { SimulatorContext } from '../context';
import { failure } from '../http/envelope';
import { receiveUpload } from '../services/disputes';

/** The largest evidence file the simulator takes (it keeps no content, only that it arrived). */
const UPLOAD_LIMIT_BYTES = 1024 * 1024;

/**
 * PUT /uploads/:fileName — where `GET /dispute/:id/upload_url` points, playing the signed storage
 * URL Paystack hands out: no key (the unguessable file name is the capability), any content type.
 */
export function registerUploadRoutes(app: FastifyInstance, ctx: SimulatorContext): void {
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: UPLOAD_LIMIT_BYTES }, (_request, body, done) => done(null, body));

  app.put<{ Params: { fileName: string } }>('/uploads/:fileName', async (request, reply) => {
    if (!receiveUpload(ctx, request.params.fileName)) return reply.code(404).send(failure('No upload URL names this file', 404));
    return reply.code(200).send('');
  });
}
