/**
 * The SDK's version, as sent in `User-Agent: seo-visibility/<version> <runtime>/<version>`. A test
 * keeps it equal to package.json's.
 *
 * @example
 * ```ts
 * import { VERSION } from 'seo-visibility';
 * console.log(VERSION); // '0.1.0'
 * ```
 */
export const VERSION = '0.1.0';
