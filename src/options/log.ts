import { oneOf } from '../internal/validate.js';
import type { Logger, LoggerOption, LogLevel } from './hooks.js';
import { ENV } from '../internal/env-names.js';

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };
/** Every `logLevel`, quietest last: what `check-options.ts` accepts and `SEO_VISIBILITY_LOG` may say. @internal */
export const LEVELS = Object.keys(RANK) as LogLevel[];

/**
 * The client's logger: `logLevel` (else `SEO_VISIBILITY_LOG`) filters what reaches `logger` (else
 * `console`). `undefined` when nothing would be logged, so the transport builds no log payloads.
 *
 * - no level, no logger: silent;
 * - no level, a logger: every line reaches it (its own level decides what it keeps);
 * - a level, no logger: the console, filtered at that level.
 *
 * A logger that throws is ignored: logging never fails a call.
 *
 * @internal
 */
export function resolveLogger(
  option: LoggerOption | undefined,
  level: LogLevel | undefined,
  env: string | undefined,
): Logger | undefined {
  const chosen = level ?? envLevel(env) ?? (option ? 'debug' : 'off');
  if (chosen === 'off') return undefined;
  const target = option ?? console;
  const min = RANK[chosen];
  // A logger without info or error (the 0.1 interface had debug and warn) gets those lines at warn.
  const write = (name: keyof Logger): Logger[keyof Logger] => {
    const method = typeof target[name] === 'function' ? target[name]! : target.warn;
    if (RANK[name] < min) return () => {};
    return (message, details) => {
      try {
        if (details === undefined) method.call(target, message);
        else method.call(target, message, details);
      } catch {
        // A logger that throws must not fail the call it describes (hooks that throw are ignored too).
      }
    };
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

function envLevel(value: string | undefined): LogLevel | undefined {
  if (value === undefined || value === '') return undefined;
  return oneOf(ENV.log, value.trim().toLowerCase(), LEVELS);
}
