/**
 * `seo-visibility/otel`: OpenTelemetry tracing for the client, one `CLIENT` span per HTTP attempt
 * under the caller's active span. Needs the optional peer dependency `@opentelemetry/api`; kept
 * out of the main entry so that clients without tracing never load it.
 *
 * @example
 * ```ts
 * import { SeoVisibilityClient } from 'seo-visibility';
 * import { otelHooks } from 'seo-visibility/otel';
 * const client = new SeoVisibilityClient({ hooks: otelHooks() });
 * ```
 * @packageDocumentation
 */
export { otelHooks, type OtelHooks, type OtelHooksOptions } from './otel-hooks.js';
