/**
 * 500/502/503 over the simulator's HTTP form: a read is retried to success, or fails with
 * `InternalServerError` carrying status, code and request id once retries are used up; a create is
 * never replayed after a 5xx (the server may have done the work).
 */
import { createSimulator } from '../../../../src/testing/index.js';
import { requestIds } from '../../../../src/testing/pipeline.js';
import { fastClient, outcomeOf, row } from '../kit.js';
import { describeHits } from '../outcome.js';
import type { Row } from '../report.js';

const AREA = 'Fault: server error (5xx)';
const SEED = 12;

export async function serverErrors(): Promise<Row[]> {
  const sim = createSimulator({ seed: SEED, rateLimit: false });
  const server = await sim.listen({ port: 0 });
  const key = sim.keys.readWrite;
  const ids = requestIds(SEED);
  const idAfter = (n: number): string => {
    let id = '';
    for (let i = 0; i < n; i++) id = ids();
    return id;
  };
  const rows: Row[] = [];
  const client = fastClient(server.url, { apiKey: key });
  const projectId = sim.data.listedProjects[0]!.id;
  try {
    for (const status of [500, 502, 503] as const) {
      sim.inject({ match: { method: 'GET' }, fault: { type: 'status', status } });
      const observed = await outcomeOf(client.backlinks.summary(projectId), key);
      rows.push(
        row(
          AREA,
          `${status} once, then healthy (GET)`,
          1,
          'ok',
          observed,
          '2 requests: GET /projects/{id}/backlinks/summary ×2',
          describeHits(sim.requests),
        ),
      );
      idAfter(sim.requests.length);
      sim.reset();

      sim.inject({ match: { method: 'GET' }, times: 3, fault: { type: 'status', status } });
      const failed = await outcomeOf(client.backlinks.summary(projectId), key);
      rows.push(
        row(
          AREA,
          `${status} on every attempt (GET, maxRetries 2)`,
          1,
          `InternalServerError ${status} INTERNAL_ERROR ${idAfter(3)}`,
          failed,
          '3 requests: GET /projects/{id}/backlinks/summary ×3',
          describeHits(sim.requests),
        ),
      );
      sim.reset();

      const before = sim.data.projects.length;
      sim.inject({ match: { method: 'POST' }, fault: { type: 'status', status } });
      const created = await outcomeOf(client.projects.create({ websiteUrl: `https://five-${status}.example` }), key);
      const count = sim.data.projects.length - before;
      rows.push(
        row(
          AREA,
          `${status} on create (POST): never replayed`,
          1,
          `InternalServerError ${status} INTERNAL_ERROR ${idAfter(1)}, 0 projects created`,
          `${created}, ${count} projects created`,
          '1 request: POST /projects ×1',
          describeHits(sim.requests),
        ),
      );
      sim.reset();
    }
  } finally {
    await server.close();
  }
  return rows;
}
