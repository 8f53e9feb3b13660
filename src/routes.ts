import { priceImportRoutes } from './agreements/price-imports/routes.js';
import { priceItemRoutes } from './agreements/price-items/routes.js';
import { agreementRoutes } from './agreements/routes.js';
import { documentRoutes } from './documents/routes.js';
import type { RouteDefinition } from './http/route.js';
import { invoiceRoutes } from './invoices/routes.js';
import { matchingRoutes } from './matching/routes.js';
import { organizationRoutes } from './organizations/routes.js';
import { partyRoutes } from './parties/routes.js';
import { runRoutes } from './runs/routes.js';

// The whole Organization/Ingestion API: each domain folder owns its routes.
export const allRoutes: RouteDefinition[] = [...organizationRoutes, ...partyRoutes, ...documentRoutes, ...invoiceRoutes, ...agreementRoutes, ...priceItemRoutes, ...priceImportRoutes, ...matchingRoutes, ...runRoutes];
