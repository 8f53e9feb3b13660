import { activityRoutes } from './activity/routes.js';
import { alertRoutes } from './alerts/routes.js';
import { topicReconcileRoutes } from './alerts/topic-reconcile/routes.js';
import { alertTopicRoutes } from './alerts/topics/routes.js';
import { contextSuggestionRoutes } from './agreements/context-suggestions/routes.js';
import { agreementDocumentRoutes } from './agreements/documents/routes.js';
import { priceImportRoutes } from './agreements/price-imports/routes.js';
import { priceItemRoutes } from './agreements/price-items/routes.js';
import { agreementRoutes } from './agreements/routes.js';
import { checkSelectionRoutes } from './check-selections/routes.js';
import { checkRoutes } from './checks/routes.js';
import { claimMoneyRoutes } from './claims/money-routes.js';
import { claimRoutes } from './claims/routes.js';
import { documentRoutes } from './documents/routes.js';
import { documentSearchRoutes } from './documents/search/routes.js';
import type { RouteDefinition } from './http/route.js';
import { integrationRoutes } from './integrations/routes.js';
import { invoiceRoutes } from './invoices/routes.js';
import { teamFilterPreviewRoutes } from './invoices/team-filter-preview.js';
import { matchingRoutes } from './matching/routes.js';
import { notificationRoutes } from './notifications/routes.js';
import { organizationRoutes } from './organizations/routes.js';
import { partyRoutes } from './parties/routes.js';
import { runRoutes } from './runs/routes.js';
import { overviewRoutes } from './overview/routes.js';
import { searchRoutes } from './search/routes.js';
import { teamRoutes } from './teams/routes.js';
import { supportRoutes } from './support/routes.js';

// The whole Organization/Ingestion API: each domain folder owns its routes. The table keeps each
// route's own type (its operationId and schemas) for in-process callers: ApiRoute.
const routeTable = [
  ...organizationRoutes,
  ...partyRoutes,
  ...documentRoutes,
  ...documentSearchRoutes,
  ...invoiceRoutes,
  ...agreementRoutes,
  ...priceItemRoutes,
  ...priceImportRoutes,
  ...agreementDocumentRoutes,
  ...matchingRoutes,
  ...checkRoutes,
  ...checkSelectionRoutes,
  ...alertRoutes,
  ...alertTopicRoutes,
  ...topicReconcileRoutes,
  ...contextSuggestionRoutes,
  ...claimRoutes,
  ...claimMoneyRoutes,
  ...teamRoutes,
  ...teamFilterPreviewRoutes,
  ...integrationRoutes,
  ...overviewRoutes,
  ...searchRoutes,
  ...runRoutes,
  ...activityRoutes,
  ...supportRoutes,
  ...notificationRoutes,
];

export type ApiRoute = (typeof routeTable)[number];
export const allRoutes: RouteDefinition[] = routeTable;
