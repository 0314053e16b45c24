/**
 * The `{message, data}` envelope of every successful answer (docs/api-spec.md).
 */
import type { Envelope } from '@verimark/contract';

/** The envelope of every 200 response (spec §2.1). */
export function ok<T>(description: string, data: T): Envelope<T> {
  return { message: { status: 'success', statusCode: 200, description }, data };
}
