import type { ComplianceFinding } from '../generated/prisma/client.js';
import { formatAmount } from '../shared/money.js';

export function serializeFinding(finding: ComplianceFinding) {
  return {
    id: finding.id,
    position: finding.position,
    checker: finding.checker,
    title: finding.title,
    explanation: finding.explanation,
    impact_amount: formatAmount(finding.impactAmount)!,
    currency_code: finding.currencyCode,
    confidence: { level: finding.confidence },
    invoice_item_id: finding.invoiceLineId,
    correction_type: finding.correctionType,
    citations: finding.citations,
    expected: finding.expected ?? null,
    alert_id: finding.alertId,
  };
}
