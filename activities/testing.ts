import { ApplicationFailure, Context } from '@temporalio/activity';

// Work items of the test-only workflow (workflows/testing.ts): each behaves as the test asks.
export type TestItemBehaviour = 'succeed' | 'fail' | 'fail_on_first_attempt' | 'slow' | 'brief';

export function createTestActivities() {
  return {
    async performTestItem(behaviour: TestItemBehaviour, attempt: number): Promise<{ done: string }> {
      if (behaviour === 'fail' || (behaviour === 'fail_on_first_attempt' && attempt === 1)) {
        throw ApplicationFailure.nonRetryable(`test item failed as asked (${behaviour})`, 'TestItemFailed');
      }
      // Long enough to be cancelled while running, too short to heartbeat.
      if (behaviour === 'brief') await new Promise((resolve) => setTimeout(resolve, 2_000));
      if (behaviour === 'slow') {
        const context = Context.current();
        for (let i = 0; i < 600; i++) {
          await context.sleep(100);
          context.heartbeat();
        }
      }
      return { done: behaviour };
    },
  };
}

export type TestActivities = ReturnType<typeof createTestActivities>;
