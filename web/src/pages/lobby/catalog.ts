// The games this server plays (`GET /api/catalog`), asked once per page load.

import { api, routes } from '../../api';
import type { CatalogGame } from '../../wire/server/CatalogGame';

export type { CatalogGame };

let catalogCache: CatalogGame[] | null = null;
export async function catalog(): Promise<CatalogGame[]> {
  if (!catalogCache) {
    const c = await api.call(routes['GET /api/catalog']);
    catalogCache = c.games;
  }
  return catalogCache;
}
