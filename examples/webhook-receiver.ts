/**
 * A webhook receiver that is safe to copy: it answers only POST /hooks/seo/<WEBHOOK_SECRET> with a
 * JSON event under 64 KiB (anything else is refused: 404, 405, 415, 413, 408), drops repeated
 * deliveries, and runs the typed handlers after it answered.
 *
 * Without a key, against the built-in simulator (from a clone of this repository): it subscribes
 * itself, asks for a test delivery with `client.webhooks.test()`, prints it and exits:
 *   npm run example examples/webhook-receiver.ts
 * With a key, against the service: it listens until stopped (SIGTERM finishes the handlers under
 * way). Make a secret once (`node -e "import('seo-visibility/webhooks').then(m => console.log(m.generateWebhookSecret()))"`),
 * expose the port publicly (a tunnel, a load balancer) and subscribe
 * webhookUrl('https://<public host>/hooks/seo', WEBHOOK_SECRET); EXIT_AFTER_TEST=1 runs the self-test and exits:
 *   WEBHOOK_SECRET=… SEO_VISIBILITY_API_KEY=… SEO_VISIBILITY_BASE_URL=https://…/api/v1 PORT=8787 npx tsx examples/webhook-receiver.ts
 */
import { createServer } from 'node:http';
import { SeoVisibilityClient } from 'seo-visibility';
import { createWebhookReceiver, generateWebhookSecret, webhookUrl } from 'seo-visibility/webhooks';

const selfTest =
  process.env.EXIT_AFTER_TEST === '1' || process.env.SEO_VISIBILITY_BASE_URL?.startsWith('http://127.0.0.1');
// Fails closed: a listening receiver needs a secret you keep; the self-test makes a throwaway one.
const secret = process.env.WEBHOOK_SECRET || (selfTest ? generateWebhookSecret() : undefined);
if (!secret) {
  console.error(
    'Set WEBHOOK_SECRET (43 random URL-safe characters: generateWebhookSecret() from seo-visibility/webhooks makes one).',
  );
  process.exit(2);
}

let received = 0;
const receiver = createWebhookReceiver({ secret, path: '/hooks/seo' })
  .on('audit.completed', (event) => {
    console.log(`audit ${event.data.audit_id} done: ${event.data.pages_crawled} pages — read it with audits.latest()`);
  })
  .on('keywords.updated', (event) => {
    console.log(
      `${event.data.keywords_updated} keywords updated in project ${event.project_id} — read them with rankings.list()`,
    );
  })
  .on('prompts.updated', (event) => {
    console.log(
      `prompt ${event.data.prompt_id}: ${event.data.visibility_percentage}% visible, best on ${event.data.best_model}`,
    );
  })
  .on('webhook.test', (event) => {
    received++;
    console.log(`event webhook.test for project ${event.project_id}: the subscription reaches this receiver`);
  })
  .on('unknown', (event) => {
    // A name added after this SDK version: acknowledged, logged, nothing else.
    console.log(`event ${JSON.stringify(event.event)} is newer than this SDK; project ${event.project_id}`);
  });

const server = createServer(receiver.node);
// Slow headers are the server's to bound (the receiver bounds the body).
server.headersTimeout = 10_000;
server.requestTimeout = 15_000;
const port = Number(process.env.PORT ?? 0);
await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
const address = server.address();
const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
// The secret is not printed: it is the receiver's only credential.
console.log(`listening on ${origin} (POST /hooks/seo/<WEBHOOK_SECRET>)`);

async function stop(): Promise<void> {
  await new Promise((resolve) => server.close(resolve));
  await receiver.idle();
}
process.once('SIGTERM', () => void stop().then(() => process.exit(0)));

if (selfTest) {
  const client = new SeoVisibilityClient();
  const project = (await client.projects.list({ limit: 1 })).items[0];
  if (!project) throw new Error('No project to subscribe to');
  const hook = await client.webhooks.create({
    url: webhookUrl(`${origin}/hooks/seo`, secret),
    project_id: project.id,
    events: ['audit.completed', 'keywords.updated'],
  });
  try {
    await client.webhooks.test(hook.id!);
    const deadline = Date.now() + 5_000;
    while (received === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    await client.webhooks.delete(hook.id!);
    await stop();
  }
  if (received === 0) throw new Error('No test delivery arrived within 5 s');
}
