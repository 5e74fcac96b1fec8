// The baseline of the click benchmark: a bare Fastify app with one 302 route and nothing else (no
// logger, no routing, no storage). Run by bench/run.ts in a child process, the same way as the real
// server, so the ratio between the two is what Switchyard's tracker costs per click.
import Fastify from 'fastify';

const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';

const app = Fastify({ logger: false });

app.get('/c/:campaign', async (_request, reply) => {
  reply.header('cache-control', 'no-store');
  return reply.redirect('https://offer.example/go?c=abc', 302);
});

process.once('SIGTERM', () => {
  void app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});

await app.listen({ port, host });
