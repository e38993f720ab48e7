/** Every fault scenario the child process can run, by name (one per fault category). */
import type { Row } from '../report.js';
import { abort } from './abort.js';
import { bodies } from './bodies.js';
import { connection } from './connection.js';
import { hang } from './hang.js';
import { meta } from './meta.js';
import { rateLimit } from './rate-limit.js';
import { serverErrors } from './server-errors.js';

export const SCENARIOS: Record<string, () => Promise<Row[]>> = {
  'rate-limit': rateLimit,
  'server-errors': serverErrors,
  bodies,
  connection,
  hang,
  abort,
  meta,
};
