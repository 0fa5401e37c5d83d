/**
 * The scripted behaviours the simulator knows, tried in this order for each chat. A model's
 * scenario entry turns a behaviour on by holding a block under the behaviour's name; a chat
 * no enabled behaviour recognises gets the generic answer (see ../genericAnswer.ts).
 */
import type { Behaviour } from '../behaviour.js';
import { churnBehaviour } from './churn.js';
import { dragonBehaviour } from './dragon.js';
import { personasBehaviour } from './personas.js';

export const behaviours: readonly Behaviour[] = [
  dragonBehaviour,
  personasBehaviour,
  churnBehaviour,
];
