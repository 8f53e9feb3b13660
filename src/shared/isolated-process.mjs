// The helper process behind runIsolated (isolated.ts): loads a module (TypeScript, through tsx
// as in the rest of the service), calls the function, sends back its result. Plain JavaScript,
// so it starts without a loader. It ends with its parent (the IPC channel closes).
import { register } from 'tsx/esm/api';

register();

process.on('message', async ({ moduleUrl, exportName, args }) => {
  try {
    const module = await import(moduleUrl);
    process.send({ ok: true, value: await module[exportName](...args) });
  } catch (error) {
    process.send({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
