import type { WebRoute } from './page.js';
import { invoicePages } from './pages/invoices.js';
import { settingsPages } from './pages/settings.js';

// Every page and action of the web application (the session routes are in pages/auth.ts).
export const webRoutes: WebRoute[] = [...invoicePages, ...settingsPages];
