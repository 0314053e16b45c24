/**
 * GET /account (docs/design.md §3 "Beyond the contract"): a key's balance, expiry and label.
 */
import { type Account, DESCRIPTIONS, PATHS } from '@verimark/contract';
import type { FastifyInstance } from 'fastify';
import { account, authenticate } from './auth';
import type { AppContext } from './context';
import { ok } from './envelope';

/**
 * GET /account (docs/design.md §3 "Beyond the contract"): the key's balance, expiry and label.
 * 401 for a bad key but never 402: an expired account can still look at itself.
 */
export function accountRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(PATHS.account, { onRequest: authenticate(ctx.keys, { allowExpired: true }) }, async (request) => {
    const key = account(request);
    const data: Account = { credits: key.credits, expires_at: key.expires_at, label: key.label };
    return ok(DESCRIPTIONS.account, data);
  });
}
