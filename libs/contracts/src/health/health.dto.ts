/** `GET /health`: the process is up and serving HTTP. */
export class HealthResponse {
  status: 'ok';
}

/** `GET /ready`: the database answers and every migration is applied. */
export class ReadinessResponse {
  status: 'ready';
}
