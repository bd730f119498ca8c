import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback proxy in front of the lab that counts the requests it forwards and keeps
 * their bodies, so a test can say what reached AWS's stand-in (no request at all, or no
 * request naming a placeholder table); `delayMs` holds each request that long.
 */
export async function countingProxy(
  target: string,
  { delayMs = 0 }: { delayMs?: number } = {},
): Promise<{ url: string; count: () => number; bodies: () => string[]; close(): Promise<void> }> {
  const to = new URL(target);
  let n = 0;
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    n++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      // A slow network, when asked: a refresh then lasts long enough for the code to change under it.
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      const body = Buffer.concat(chunks);
      bodies.push(body.toString('utf8'));
      const out = http.request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers, agent: false },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => n,
    bodies: () => [...bodies],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
