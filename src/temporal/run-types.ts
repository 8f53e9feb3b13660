// Every kind of background work is a run type: which workflow carries it out, and what
// POST /v1/workflow-runs/{id}/retry does with a failed run of it.
//   new_run: a new workflow run, linked by retry_of_run_id (imports, checks);
//   resume:  the same run id starts again and continues from its checkpoint (syncs);
//   none:    not retryable.
export type RetryStrategy = 'new_run' | 'resume' | 'none';

export interface RunType {
  type: string;
  workflowType: string;
  retry: RetryStrategy;
}

export class RunTypeRegistry {
  private readonly byType = new Map<string, RunType>();

  constructor(types: RunType[]) {
    for (const runType of types) this.byType.set(runType.type, runType);
  }

  get(type: string): RunType {
    const runType = this.byType.get(type);
    if (!runType) throw new Error(`unknown run type ${type}`);
    return runType;
  }

  names(): string[] {
    return [...this.byType.keys()];
  }
}

// Production run types join here as their features arrive. The spec allows retry of a failed
// import, check or sync only; the other kinds of work are started again by the request that
// started them (refresh, price import, document import or index, topic reconcile).
export const productionRunTypes: RunType[] = [
  { type: 'import', workflowType: 'importInvoiceWorkflow', retry: 'new_run' },
  { type: 'refresh', workflowType: 'refreshMatchesWorkflow', retry: 'none' },
  { type: 'price_import', workflowType: 'priceImportWorkflow', retry: 'none' },
  { type: 'check', workflowType: 'checkInvoicesWorkflow', retry: 'new_run' },
  { type: 'document_import', workflowType: 'documentImportWorkflow', retry: 'none' },
  { type: 'document_index', workflowType: 'documentIndexWorkflow', retry: 'none' },
  { type: 'topic_reconcile', workflowType: 'reconcileTopicsWorkflow', retry: 'none' },
  { type: 'sync', workflowType: 'syncWorkflow', retry: 'resume' },
  { type: 'supplier_refresh', workflowType: 'refreshSuppliersWorkflow', retry: 'none' },
];
