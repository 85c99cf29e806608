// One renderer per board kind; games without one use the generic view.

import { genericRenderer } from './generic';
import type { Renderer } from './types';

const renderers: Record<string, Renderer> = {};

export function registerRenderer(gameId: string, r: Renderer): void {
  renderers[gameId] = r;
}

export function rendererFor(gameId: string): Renderer {
  return renderers[gameId] ?? genericRenderer;
}
