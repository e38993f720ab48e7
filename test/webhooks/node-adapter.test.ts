/**
 * The Node adapter with a stand-in request (no socket): what a header Node let through but the
 * Fetch API refuses does, and where Express's `next` sends other paths.
 */
import { expect, test } from 'vitest';
import {
  createWebhookReceiver,
  generateWebhookSecret,
  type NodeRequest,
  type NodeResponse,
} from '../../src/webhooks/index.js';

function fakeRequest(url: string, headers: NodeRequest['headers']): NodeRequest {
  return {
    method: 'POST',
    url,
    headers,
    complete: true,
    on: () => undefined,
    pause: () => undefined,
    resume: () => undefined,
  };
}

function fakeResponse() {
  const written: { status?: number; headers?: Record<string, string>; ended: boolean } = { ended: false };
  const response: NodeResponse = {
    writeHead(status, headers) {
      written.status = status;
      written.headers = headers;
    },
    end() {
      written.ended = true;
    },
  };
  return { response, written };
}

test('a header the Fetch API refuses is answered 400, never thrown out of the request listener', () => {
  const secret = generateWebhookSecret();
  const receiver = createWebhookReceiver({ secret, path: '/hooks/seo' });
  const { response, written } = fakeResponse();
  expect(() =>
    receiver.node(
      fakeRequest(`/hooks/seo/${secret}`, { 'content-type': 'application/json', 'x-bad': 'a\nb' }),
      response,
    ),
  ).not.toThrow();
  expect(written).toMatchObject({ status: 400, ended: true });
});

test("with Express's next, a path outside the receiver's goes on; inside it, the receiver answers", async () => {
  const receiver = createWebhookReceiver({ secret: generateWebhookSecret(), path: '/hooks/seo' });
  let nexted = 0;
  const outside = fakeResponse();
  receiver.node(fakeRequest('/health', {}), outside.response, () => nexted++);
  expect(nexted).toBe(1);
  expect(outside.written.ended).toBe(false);
});
