/**
 * The endpoints beyond the contract that need no key (docs/design.md §3): /healthz, /metrics,
 * /openapi.json and /docs. They are registered outside the keyed scope and are not rate limited
 * per key (a monitor scrapes them often).
 */
import type { FastifyInstance } from 'fastify';
import { renderApiDocs } from './api-docs-page';
import type { ServiceMetrics } from './metrics';
import { buildOpenApi } from './openapi';
import { OPS_PATHS } from './openapi-paths';

interface OpsDeps {
  metrics: ServiceMetrics;
  /** Throws when the database does not answer. */
  pingDatabase: () => unknown;
}

export function opsRoutes(app: FastifyInstance, deps: OpsDeps): void {
  const doc = buildOpenApi();
  const docsPage = renderApiDocs(doc);
  const noLimit = { config: { rateLimit: false } };

  app.get(OPS_PATHS.health, noLimit, async (request, reply) => {
    try {
      await deps.pingDatabase();
      return { status: 'ok' };
    } catch (err) {
      request.log.error({ err }, 'health check: the database does not answer');
      return reply.code(503).send({ error: 503, message: 'Database unavailable' });
    }
  });

  app.get(OPS_PATHS.metrics, noLimit, async (_request, reply) => {
    const text = await deps.metrics.registry.metrics();
    return reply.header('content-type', deps.metrics.registry.contentType).send(text);
  });

  app.get(OPS_PATHS.openapi, async () => doc);

  app.get(OPS_PATHS.docs, async (_request, reply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(docsPage),
  );
}
