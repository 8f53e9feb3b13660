import type { Provider } from './provider.js';
import { s3InboxProvider } from './s3-inbox.js';
import { tripletexProvider } from './tripletex.js';

// Every provider the service supports; a new one joins here (see docs/integrations.md).
export const PROVIDERS: Provider[] = [s3InboxProvider, tripletexProvider];

export function providerById(id: string): Provider | undefined {
  return PROVIDERS.find((provider) => provider.id === id);
}
