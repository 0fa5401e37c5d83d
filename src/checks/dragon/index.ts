/**
 * The dragon check: calibration of stated confidence in a partially observable maze
 * (protocol dragon-calibration/1, docs/dragon-protocol.md).
 */
import type { Check } from '../types.js';
import { analyseDragon } from './analysis.js';
import { type DragonDefinitions, dragonDefinitions } from './definitions.js';
import { dragonGate } from './gate.js';
import { planGames } from './plan.js';
import type { DragonSection } from './section.js';

export const dragonCheck: Check<DragonDefinitions, DragonSection> = {
  name: 'dragon',
  load: async (ctx) => dragonDefinitions(ctx.config.dragon),
  plan: (definitions, ctx, model) =>
    planGames(definitions, model, {
      temperature: ctx.config.dragon.temperature,
      seed: ctx.config.dragon.seed,
      numCtx: ctx.config.runner.numCtx,
      numPredict: ctx.config.dragon.numPredict,
      think: ctx.config.dragon.think,
    }),
  analyse: (records, definitions, ctx) => analyseDragon(records, definitions, ctx.models),
  gate: (section, ctx, previous) => dragonGate(section, ctx.config.dragon.gate, previous),
};

export type { DragonDefinitions } from './definitions.js';
export { playReferenceGames, REFERENCE_PLAYERS, type ReferencePlayer } from './players.js';
export type { DragonSection } from './section.js';
