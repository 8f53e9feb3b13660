// What every workflow of ours receives as its single argument (kept free of imports: workflow
// code includes it in its sandboxed bundle).
export interface RunArgs<Input = Record<string, unknown>> {
  runId: string;
  organizationId: string;
  input: Input;
}
