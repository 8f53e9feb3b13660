import { ApplicationFailure, CancelledFailure, Context } from '@temporalio/activity';
import type { Logger } from '../src/logger.js';
import { isRetryableError, publicFailure } from '../src/shared/failures.js';

// Every activity runs inside this: an error that escapes it is logged with its detail under the
// run id (the workflow id), then handed to Temporal as an ApplicationFailure whose type and
// message are the public failure (src/shared/failures.ts) and which is retryable only when it was
// an infrastructure error. A deterministic error (validation, constraint, parameter limit, parse
// error, a bug) therefore fails at once instead of ten times over minutes, and no library text,
// path or SQL travels on into run items, imports or invoices.

function activityContext(): Record<string, unknown> {
  try {
    const info = Context.current().info;
    return { run_id: info.workflowExecution?.workflowId, activity: info.activityType, attempt: info.attempt };
  } catch {
    // Called outside an activity (a test calling the function directly).
    return {};
  }
}

export function classifyActivityFailure(error: unknown, logger: Logger): unknown {
  // Our own failures and cancellations already say what they are.
  if (error instanceof ApplicationFailure || error instanceof CancelledFailure) return error;
  const retryable = isRetryableError(error);
  const failure = publicFailure(error);
  logger.error({ err: error, ...activityContext(), retryable, public_code: failure.code }, 'activity failed');
  return ApplicationFailure.create({ type: failure.code, message: failure.message, nonRetryable: !retryable });
}

type AnyFunction = (...args: never[]) => Promise<unknown>;

// The same activities, each wrapped.
export function withFailureClassification<T extends Record<string, AnyFunction>>(activities: T, logger: Logger): T {
  const wrapped: Record<string, AnyFunction> = {};
  for (const [name, activity] of Object.entries(activities)) {
    wrapped[name] = async (...args: never[]) => {
      try {
        return await activity(...args);
      } catch (error) {
        throw classifyActivityFailure(error, logger);
      }
    };
  }
  return wrapped as T;
}
