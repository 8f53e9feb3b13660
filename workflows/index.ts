// The production workflows of the service; each feature adds its workflow module here.
export { importInvoiceWorkflow } from './import-invoice.js';
export { refreshMatchesWorkflow } from './refresh-matches.js';
export { priceImportWorkflow } from './price-import.js';
export { checkInvoicesWorkflow } from './check-invoices.js';
export { documentImportWorkflow, documentIndexWorkflow } from './agreement-documents.js';
export { reconcileTopicsWorkflow } from './reconcile-topics.js';
export { syncWorkflow, scheduledSyncWorkflow, refreshSuppliersWorkflow } from './sync.js';
export {
  deliverNotificationWorkflow,
  dispatchNotificationsWorkflow,
  agreementExpiringNotificationsWorkflow,
} from './notifications.js';
