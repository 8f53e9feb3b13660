import { Context } from '@temporalio/activity';

// A run's id is its workflow's id: work an activity does is recorded as done by that run
// (docs/activity.md). Null outside a run with a UUID workflow id.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function currentRunId(): string | null {
  const workflowId = Context.current().info.workflowExecution?.workflowId ?? '';
  return UUID.test(workflowId) ? workflowId : null;
}
