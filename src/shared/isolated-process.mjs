// The helper process behind runIsolated (isolated.ts): loads a module (TypeScript, through tsx
// as in the rest of the service), calls the function, sends back its result. Plain JavaScript,
// so it starts without a loader. It ends with its parent (the IPC channel closes).
import { register } from 'tsx/esm/api';

register();

process.on('message', async (message) => {
  // A new helper loads the modules the pool runs before a call needs them (a failure here shows
  // again, and is reported, when a call loads the module).
  if (message.preload) {
    for (const url of message.preload) await import(url).catch(() => undefined);
    return;
  }
  const { moduleUrl, exportName, args } = message;
  try {
    const module = await import(moduleUrl);
    // The call's own time limit starts now, after the module is loaded.
    process.send({ started: true });
    process.send({ ok: true, value: await module[exportName](...args) });
  } catch (error) {
    process.send({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
