/**
 * The environment variables the SDK and its commands read, each spelled here once: code reads
 * `env[ENV.apiKey]`, and errors and help texts name `ENV.apiKey`, so what a message tells the user
 * to set is always what the code reads.
 * @example
 * ```ts
 * const key = process.env[ENV.apiKey]; // SEO_VISIBILITY_API_KEY
 * ```
 * @internal
 */
export const ENV = {
  /** The API key, where no `apiKey` option is given. */
  apiKey: 'SEO_VISIBILITY_API_KEY',
  /** The API's base URL (ending in /api/v1), where no `baseUrl` option is given. */
  baseUrl: 'SEO_VISIBILITY_BASE_URL',
  /** The client's log level, where no `logLevel` option is given. */
  log: 'SEO_VISIBILITY_LOG',
  /** The commands' PostgreSQL URL, where no store option is given. */
  postgresUrl: 'SEO_VISIBILITY_POSTGRES_URL',
  /** The signing secret of `seo-visibility webhooks listen`. */
  webhookSecret: 'SEO_VISIBILITY_WEBHOOK_SECRET',
} as const;
