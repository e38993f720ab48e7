/**
 * A webhook receiver: validates each delivery with parseWebhookEvent and routes it by event.
 *
 * Without a key, against the built-in simulator (from a clone of this repository): it subscribes
 * itself, asks for a test delivery with `client.webhooks.test()`, prints it and exits:
 *   npm run example examples/webhook-receiver.ts
 * With a key, against the service: it listens until stopped. Expose the port publicly (a tunnel,
 * a load balancer) and subscribe its URL; EXIT_AFTER_TEST=1 runs the same self-test and exits:
 *   SEO_VISIBILITY_API_KEY=… SEO_VISIBILITY_BASE_URL=https://…/api/v1 PORT=8787 npx tsx examples/webhook-receiver.ts
 */
import { createServer } from 'node:http';
import { InvalidArgumentError, SeoVisibilityClient, isKnownWebhookEvent, parseWebhookEvent, type WebhookEvent } from 'seo-visibility';

function handle(event: WebhookEvent): void {
  if (!isKnownWebhookEvent(event)) {
    // An event added after this SDK version.
    console.log(`event ${event.event} (newer than this SDK) for project ${event.project_id}`);
    return;
  }
  switch (event.event) {
    case 'webhook.test':
      // The delivery `client.webhooks.test()` asks for: the endpoint is reachable.
      console.log(`event webhook.test: a test delivery for project ${event.project_id}`);
      break;
    case 'audit.completed':
      console.log(`audit ${event.data.audit_id} done: ${event.data.pages_crawled} pages — read it with audits.latest()`);
      break;
    case 'keywords.updated':
      console.log(`${event.data.keywords_updated} keywords updated — read them with rankings.list()`);
      break;
    case 'prompts.updated':
      console.log(`prompt ${event.data.prompt_id}: ${event.data.visibility_percentage}% visible, best on ${event.data.best_model}`);
      break;
    default:
      console.log(`${event.event} for project ${event.project_id}`, event.data);
  }
}

let received = 0;
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    try {
      handle(parseWebhookEvent(Buffer.concat(chunks).toString('utf8')));
      received++;
      response.writeHead(204).end();
    } catch (error) {
      // A malformed delivery: answer 400 so it is visible on the sender's side, and log why.
      if (!(error instanceof InvalidArgumentError)) throw error;
      console.error(error.message);
      response.writeHead(400).end();
    }
  });
});

const port = Number(process.env.PORT ?? 0);
await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
const address = server.address();
const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/hooks/seo`;
console.log(`listening on ${url}`);

const selfTest = process.env.EXIT_AFTER_TEST === '1' || process.env.SEO_VISIBILITY_BASE_URL?.startsWith('http://127.0.0.1');
if (selfTest) {
  const client = new SeoVisibilityClient();
  const project = (await client.projects.list({ limit: 1 })).items[0];
  if (!project) throw new Error('No project to subscribe to');
  const hook = await client.webhooks.create({ url, project_id: project.id, events: ['audit.completed', 'keywords.updated'] });
  await client.webhooks.test(hook.id!);
  const deadline = Date.now() + 5_000;
  while (received === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await client.webhooks.delete(hook.id!);
  server.close();
  if (received === 0) throw new Error('No test delivery arrived within 5 s');
}
