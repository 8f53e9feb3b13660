import type { ActivityInterceptorsFactory } from '@temporalio/worker';

// An activity scheduled with a heartbeat timeout heartbeats for as long as it runs. When its
// worker dies (kill -9, a lost machine), Temporal then retries it on another worker once that
// timeout has passed, instead of after its whole start-to-close timeout (minutes). An activity
// that hangs is still ended by its start-to-close timeout. Activities that heartbeat on their own
// (the syncs' provider calls) go on doing so; no activity reads heartbeat details back.
export const heartbeatWhileRunning: ActivityInterceptorsFactory = (context) => ({
  inbound: {
    async execute(input, next) {
      const timeoutMs = context.info.heartbeatTimeoutMs;
      if (context.info.isLocal || !timeoutMs) return next(input);
      // The SDK sends at most one heartbeat per 80 % of the timeout; a few calls per timeout make
      // sure one falls in each.
      const beat = setInterval(() => context.heartbeat(), Math.max(1_000, Math.floor(timeoutMs / 4)));
      try {
        return await next(input);
      } finally {
        clearInterval(beat);
      }
    },
  },
});
