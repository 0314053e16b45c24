/**
 * GET /docs: the OpenAPI document as a plain HTML page, rendered on the server from the same
 * document as /openapi.json. Every piece of text is escaped; no scripts, no external resources.
 */
import type { Json } from './json-schema';

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c] ?? c);
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
}
interface Operation {
  summary?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { description?: string; content?: Record<string, unknown> }>;
}

const code = (text: string) => `<code>${escapeHtml(text)}</code>`;

/** A schema in one short line: `$ref` names, enums, types and bounds. */
function schemaText(schema: Json | undefined): string {
  if (!schema) return '';
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').at(-1) ?? '';
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(String).join(', ')}`;
  const bounds = ['minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'default']
    .filter((k) => schema[k] !== undefined)
    .map((k) => `${k} ${String(schema[k])}`);
  return [String(schema.type ?? 'any'), ...bounds].join(', ');
}

function fieldsOf(schema: Json | undefined): string {
  const properties = schema?.properties as Record<string, Json> | undefined;
  if (!properties) return schemaText(schema);
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  const items = Object.entries(properties).map(
    ([name, property]) =>
      `<li>${code(name)}${required.has(name) ? ' (required)' : ''}: ${escapeHtml(schemaText(property))}</li>`,
  );
  return `<ul>${items.join('')}</ul>`;
}

function operationHtml(method: string, path: string, op: Operation, keyHeader: string): string {
  const parts = [
    `<h2>${code(`${method.toUpperCase()} ${path}`)}</h2>`,
    `<p>${escapeHtml(op.summary ?? '')}</p>`,
    Array.isArray(op.security) && op.security.length === 0
      ? '<p>No API key.</p>'
      : `<p>Needs the API key in the ${code(keyHeader)} header.</p>`,
  ];
  if (op.parameters?.length) {
    const items = op.parameters.map(
      (p) =>
        `<li>${code(p.name)} (${escapeHtml(p.in)}${p.required ? ', required' : ''}): ${escapeHtml(schemaText(p.schema))}</li>`,
    );
    parts.push(`<h3>Parameters</h3><ul>${items.join('')}</ul>`);
  }
  for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
    parts.push(`<h3>Body (${escapeHtml(type)})</h3>${fieldsOf(media.schema)}`);
  }
  const responses = Object.entries(op.responses ?? {}).map(
    ([status, r]) =>
      `<li>${code(status)} ${escapeHtml(r.description ?? '')}${r.content ? ` (${escapeHtml(Object.keys(r.content).join(', '))})` : ''}</li>`,
  );
  parts.push(`<h3>Responses</h3><ul>${responses.join('')}</ul>`);
  return `<section>${parts.join('\n')}</section>`;
}

function schemasHtml(schemas: Record<string, Json>): string {
  return Object.entries(schemas)
    .map(
      ([name, schema]) =>
        `<h3>${escapeHtml(name)}</h3><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`,
    )
    .join('\n');
}

export function renderApiDocs(doc: Json): string {
  const info = doc.info as { title: string; version: string; description?: string };
  const paths = doc.paths as Record<string, Record<string, Operation>>;
  const components = (doc.components ?? {}) as {
    schemas?: Record<string, Json>;
    securitySchemes?: { apiKey?: { name?: string } };
  };
  const keyHeader = components.securitySchemes?.apiKey?.name ?? 'API key';
  const operations = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => operationHtml(method, path, op, keyHeader)),
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(info.title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
section{border-top:1px solid #ccc}pre{background:#f4f4f4;padding:.5rem;overflow:auto}</style></head>
<body><h1>${escapeHtml(info.title)} ${escapeHtml(info.version)}</h1>
<p>${escapeHtml(info.description ?? '')}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
${operations.join('\n')}
<section><h2>Schemas</h2>${schemasHtml(components.schemas ?? {})}</section>
</body></html>
`;
}
