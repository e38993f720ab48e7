import { inject } from 'vitest';

// A setup file of the system suite (vitest.system.config.ts): the servers its global setup
// started (test/helpers/system-servers.ts) become the environment the helpers read, so every
// `startPostgres()` and `startRedis()` in this worker reuses them instead of starting their own.
process.env.POSTGRES_URL = inject('postgresUrl');
process.env.REDIS_URL = inject('redisUrl');
