/**
 * A webhook receiver: validates each delivery with parseWebhookEvent and routes it by event.
 *
 *   PORT=8787 npx tsx examples/webhook-receiver.ts        # runs until stopped
 *   npx tsx examples/run-with-simulator.ts examples/webhook-receiver.ts
 *
 * Against the simulator (or with EXIT_AFTER_TEST=1) it subscribes itself, asks for a test delivery,
 * prints it and exits. Expose the port publicly (a tunnel, a load balancer) for the real service.
 */
import { createServer } from 'node:http';
import { InvalidArgumentError, SeoVisibilityClient, isKnownWebhookEvent, parseWebhookEvent, type WebhookEvent } from 'seo-visibility';

function handle(event: WebhookEvent): void {
  if (!isKnownWebhookEvent(event)) {
    console.log(`event ${event.event} (newer than this SDK) for project ${event.project_id}`);
    return;
  }
  switch (event.event) {
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
