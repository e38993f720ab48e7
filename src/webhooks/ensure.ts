// Subscriptions kept in place: every project of the account has exactly one subscription to the
// receiver, with the events it handles and the current secret in its URL. Idempotent: a second run
// changes nothing; a new secret rotates the URL of the existing subscription instead of adding one.
import {
  InvalidArgumentError,
  KNOWN_EVENT_NAMES,
  type KnownWebhookEventName,
  type SeoVisibilityClient,
  type WebhookSubscription,
} from '../index.js';
import { deleteDuplicate, keepFirst } from './ensure-converge.js';
import { webhookUrl } from './secret.js';

/** Options of {@link ensureWebhooks}. */
export interface EnsureWebhooksOptions {
  /**
   * The receiver's public base URL, without the secret (`https://example.com/hooks/seo`).
   * @example
   * ```ts
   * await ensureWebhooks(client, { url: 'https://example.com/hooks/seo', secret: generateWebhookSecret(), dryRun: true });
   * ```
   */
  url: string;
  /**
   * The secret the URL must carry now. A subscription to the same base with another secret is
   * updated to this one (a rotation: keep the old secret in the receiver's list until it is done).
   * @example
   * ```ts
   * await ensureWebhooks(client, { url: 'https://example.com/hooks/seo', secret: generateWebhookSecret(), dryRun: true });
   * ```
   */
  secret: string;
  /**
   * Events each subscription must have.
   * @default all six documented events
   * @example
   * ```ts
   * await ensureWebhooks(client, { url: 'https://example.com/hooks/seo', secret: generateWebhookSecret(), events: ['keywords.updated'], dryRun: true });
   * ```
   */
  events?: readonly KnownWebhookEventName[];
  /**
   * Only say what would change; change nothing.
   * @default false
   * @example
   * ```ts
   * const plan = await ensureWebhooks(client, { url: 'https://example.com/hooks/seo', secret: generateWebhookSecret(), dryRun: true });
   * ```
   */
  dryRun?: boolean;
}

/**
 * One step of {@link ensureWebhooks}: `keep` (already right), `create` (the project had none),
 * `update` (another secret or other events: the URL is rotated in place), `delete` (a duplicate to
 * the same receiver). `url` never shows the secret.
 *
 * @example
 * ```ts
 * const describe = (s: EnsureWebhookStep) => `${s.action} ${s.projectId} ${s.url} (${s.events.join(', ')})`;
 * ```
 */
export interface EnsureWebhookStep {
  /** What is (or, in a dry run, would be) done. */
  action: 'keep' | 'create' | 'update' | 'delete';
  /** The project. */
  projectId: string;
  /** The subscription, when one exists. */
  webhookId?: string | undefined;
  /** The receiver's base URL with the secret replaced by `…`. */
  url: string;
  /** The events it has afterwards. */
  events: string[];
}

/** Ours: a subscription whose URL is this receiver's base followed by one segment (a secret, current or old). */
const isOurs = (h: WebhookSubscription, base: string): boolean =>
  typeof h.url === 'string' && h.url.startsWith(base) && !h.url.slice(base.length).includes('/');

const sameEvents = (a: readonly string[] | undefined, b: readonly string[]) =>
  a !== undefined && a.length === b.length && b.every((e) => a.includes(e));

/**
 * Makes sure every project of the account has exactly one subscription to the receiver at `url`,
 * carrying `secret` and subscribed to `events`. Idempotent; refuses to create a duplicate (a second
 * subscription to the same receiver is deleted, the first updated in place); a new secret rotates
 * the URL of the existing subscription. Fails, changing nothing, when the subscription list does
 * not show `id`, `url` and `project_id` (duplicates could not be told apart). Needs a read+write key.
 *
 * @example
 * ```ts
 * import { ensureWebhooks, generateWebhookSecret } from 'seo-visibility/webhooks';
 * const steps = await ensureWebhooks(client, { url: 'https://example.com/hooks/seo', secret: generateWebhookSecret(), dryRun: true });
 * for (const step of steps) console.log(step.action, step.projectId, step.url);
 * ```
 */
export async function ensureWebhooks(
  client: SeoVisibilityClient,
  options: EnsureWebhooksOptions,
): Promise<EnsureWebhookStep[]> {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('options', 'expected { url, secret }');
  const target = webhookUrl(options.url, options.secret);
  const base = target.slice(0, target.lastIndexOf('/') + 1);
  const shown = `${base}…`;
  const events = [...(options.events ?? KNOWN_EVENT_NAMES)];
  if (events.length === 0 || !events.every((e) => (KNOWN_EVENT_NAMES as readonly string[]).includes(e))) {
    throw new InvalidArgumentError('events', `expected a non-empty list of ${KNOWN_EVENT_NAMES.join(', ')}`);
  }
  const projects: Array<{ id: string }> = [];
  for await (const project of client.projects.list()) projects.push(project);
  const hooks = await client.webhooks.list();
  const ours = hooks.filter((h) => isOurs(h, base));
  const unreadable = hooks.filter(
    (h) => typeof h.id !== 'string' || typeof h.url !== 'string' || typeof h.project_id !== 'string',
  );
  if (unreadable.length > 0) {
    throw new InvalidArgumentError(
      'subscriptions',
      `the subscription list does not show id, url and project_id for ${unreadable.length} subscription(s): duplicates could not be told apart, so nothing was changed`,
    );
  }
  const steps: EnsureWebhookStep[] = [];
  const created = new Set<string>();
  for (const project of projects) {
    // In the order every racer agrees on, so two runs that both see duplicates keep the same one.
    const existing: WebhookSubscription[] = ours.filter((h) => h.project_id === project.id).sort(keepFirst);
    // The one already right is kept; otherwise the first is rotated in place; the others are duplicates.
    const keep = existing.find((h) => h.url === target && sameEvents(h.events, events)) ?? existing[0];
    if (!keep) {
      steps.push({ action: 'create', projectId: project.id, url: shown, events });
      if (!options.dryRun) {
        steps[steps.length - 1]!.webhookId = (
          await client.webhooks.create({ url: target, project_id: project.id, events })
        ).id;
        created.add(project.id);
      }
    } else if (keep.url === target && sameEvents(keep.events, events)) {
      steps.push({ action: 'keep', projectId: project.id, webhookId: keep.id, url: shown, events });
    } else {
      steps.push({ action: 'update', projectId: project.id, webhookId: keep.id, url: shown, events });
      if (!options.dryRun) await client.webhooks.update(keep.id!, { url: target, events });
    }
    for (const duplicate of existing.filter((h) => h !== keep)) {
      steps.push({
        action: 'delete',
        projectId: project.id,
        webhookId: duplicate.id,
        url: shown,
        events: [...(duplicate.events ?? [])],
      });
      if (!options.dryRun) await deleteDuplicate(client, duplicate.id!);
    }
  }
  if (created.size > 0) steps.push(...(await converge(client, { base, target, shown, events, projects: created })));
  return steps;
}

/**
 * After creating: another run may have created too (no idempotency key). The list is read again
 * and, per project this run created for, all but the subscription every racer keeps are deleted;
 * the kept one is brought to this run's URL and events if a racer gave it others.
 */
async function converge(
  client: SeoVisibilityClient,
  run: { base: string; target: string; shown: string; events: string[]; projects: ReadonlySet<string> },
): Promise<EnsureWebhookStep[]> {
  const steps: EnsureWebhookStep[] = [];
  const hooks = await client.webhooks.list();
  for (const projectId of run.projects) {
    const mine = hooks.filter((h) => h.project_id === projectId && isOurs(h, run.base)).sort(keepFirst);
    const [keep, ...duplicates] = mine;
    if (keep && (keep.url !== run.target || !sameEvents(keep.events, run.events))) {
      await client.webhooks.update(keep.id!, { url: run.target, events: run.events as KnownWebhookEventName[] });
      steps.push({ action: 'update', projectId, webhookId: keep.id, url: run.shown, events: run.events });
    }
    for (const duplicate of duplicates) {
      if (await deleteDuplicate(client, duplicate.id!))
        steps.push({
          action: 'delete',
          projectId,
          webhookId: duplicate.id,
          url: run.shown,
          events: [...(duplicate.events ?? [])],
        });
    }
  }
  return steps;
}
