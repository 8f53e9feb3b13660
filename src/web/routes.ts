import type { WebRoute } from './page.js';
import { agreementSetupPages } from './pages/agreement-setup.js';
import { agreementPages } from './pages/agreements.js';
import { alertPages } from './pages/alerts.js';
import { claimPages } from './pages/claims.js';
import { documentPages } from './pages/documents.js';
import { invoiceUploadPages } from './pages/invoice-upload.js';
import { integrationPages } from './pages/integrations.js';
import { invoicePages } from './pages/invoices.js';
import { overviewPages } from './pages/overview.js';
import { reviewPages } from './pages/review.js';
import { runPages } from './pages/runs.js';
import { searchPages } from './pages/search.js';
import { settingsPages } from './pages/settings.js';
import { teamViewActions } from './pages/team-view.js';
import { teamPages } from './pages/team-pages.js';
import { notificationPages } from './pages/notification-pages.js';

// Every page and action of the web application (the session routes are in pages/auth.ts).
export const webRoutes: WebRoute[] = [
  ...overviewPages,
  ...searchPages,
  ...invoiceUploadPages,
  ...invoicePages,
  ...reviewPages,
  ...agreementSetupPages,
  ...agreementPages,
  ...alertPages,
  ...claimPages,
  ...runPages,
  ...integrationPages,
  ...documentPages,
  ...settingsPages,
  ...teamViewActions,
  ...teamPages,
  ...notificationPages,
];
