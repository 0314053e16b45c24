/**
 * POST /verify/single (queue one address) and POST /verify/single/status (its result).
 */
import { DESCRIPTIONS, ERRORS, PATHS, type SingleResult } from '@verimark/contract';
import type { FastifyInstance } from 'fastify';
import { account } from './auth';
import type { AppContext } from './context';
import { ok } from './envelope';
import { HttpError } from './errors';
import { parseBody, SingleBody, TaskBody } from './validation';

/** POST /verify/single and /verify/single/status. */
export function singleRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(PATHS.single, async (request) => {
    const key = account(request);
    const body = parseBody(SingleBody, request.body);
    const task = await ctx.tasks.create(key.id, body.email, body.mode);
    if (!task) throw new HttpError(402, ERRORS.insufficientCredits);
    ctx.kickSingles();
    return ok(DESCRIPTIONS.queued, { task_id: task.id });
  });

  app.post(PATHS.singleStatus, async (request) => {
    const key = account(request);
    const body = parseBody(TaskBody, request.body);
    const task = await ctx.tasks.get(key.id, body.task_id);
    if (!task) throw new HttpError(404, ERRORS.taskNotFound);
    if (task.state === 'pending' || task.result === null) {
      return ok(DESCRIPTIONS.singleStatus, { task_id: task.id, processing_status: 'pending' });
    }
    return ok(DESCRIPTIONS.singleStatus, JSON.parse(task.result) as SingleResult);
  });
}
