import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCatalogue } from '../../../src/checks/personas/catalogue.js';
import type { SimulatedChat } from '../../../src/simulator/behaviour.js';
import {
  identifyAssistant,
  personasAnswer,
  personasBehaviour,
  readPersonasParams,
  voiceOf,
} from '../../../src/simulator/behaviours/personas.js';
import { parseScenario } from '../../../src/simulator/scenario.js';
import { stopWords } from '../../../src/stats/text/stopWords.js';
import { tokenise } from '../../../src/stats/text/tokenise.js';

const file = path.resolve('fixtures/personas/catalogue.yml');

function chat(system: string | null, user = 'My soups always turn out boring.'): SimulatedChat {
  return { model: 'sim:1b', system, user, format: null, temperature: 0.3, seed: 7 };
}

describe('personas behaviour', () => {
  const params = readPersonasParams({
    catalogue: file,
    assistants: { helper: 'You are the helper' },
    'same-voice': [['flavour', 'taste']],
  });

  it('answers only persona requests: a system prompt and no JSON format', () => {
    expect(personasAnswer(chat(null), params)).toBeNull();
    expect(
      personasAnswer({ ...chat('You are the helper.'), format: { type: 'object' } }, params),
    ).toBeNull();
    expect(personasAnswer(chat('You are the helper.'), params)).toEqual(expect.any(String));
  });

  it('recognises assistants by catalogue prompt or by phrase', () => {
    expect(identifyAssistant('You are the helper of the day.', params)).toBe('helper');
    const catalogue = parseCatalogue(readFileSync(file, 'utf8'), file);
    for (const assistant of catalogue.assistants) {
      expect(identifyAssistant(assistant.prompt, params)).toBe(assistant.name);
    }
    expect(identifyAssistant('Nobody in particular.', params)).toBeNull();
    expect(voiceOf('taste', params)).toBe(voiceOf('flavour', params));
    expect(voiceOf('technique', params)).not.toBe(voiceOf('flavour', params));
  });

  it('repeats itself exactly for the same chat and varies with model, probe and seed', () => {
    const a = personasAnswer(chat('You are the helper.'), params);
    expect(personasAnswer(chat('You are the helper.'), params)).toBe(a);
    expect(personasAnswer({ ...chat('You are the helper.'), model: 'other:1b' }, params)).not.toBe(
      a,
    );
    expect(personasAnswer(chat('You are the helper.', 'another probe'), params)).not.toBe(a);
    expect(personasAnswer({ ...chat('You are the helper.'), seed: 8 }, params)).not.toBe(a);
  });

  it('draws the set number of counted words, mostly from the voice', () => {
    const words = stopWords('en');
    const alone = readPersonasParams({ 'answer-words': 50, 'own-share': 1, 'probe-share': 0 });
    const one = tokenise(personasAnswer(chat('Prompt one.'), alone) ?? '', words);
    const two = tokenise(personasAnswer(chat('Prompt two.'), alone) ?? '', words);
    expect(one).toHaveLength(50);
    // own-share 1: two different prompts (two voices) share no counted word
    expect(one.filter((w) => two.includes(w))).toEqual([]);
    const sameVoice = readPersonasParams({
      'own-share': 1,
      'probe-share': 0,
      assistants: { a: 'Prompt one', b: 'Prompt two' },
      'same-voice': [['a', 'b']],
    });
    const three = new Set(tokenise(personasAnswer(chat('Prompt one.'), sameVoice) ?? '', words));
    const four = tokenise(personasAnswer(chat('Prompt two.'), sameVoice) ?? '', words);
    expect(four.filter((w) => three.has(w)).length).toBeGreaterThan(20);
  });

  it('validates its scenario block with the field named', () => {
    expect(() => readPersonasParams({ 'own-share': 2 })).toThrow(/personas\.own-share/);
    expect(() => readPersonasParams({ 'own-share': 0.9, 'probe-share': 0.2 })).toThrow(
      /own-share \+ probe-share/,
    );
    expect(() => readPersonasParams({ 'same-voice': [['alone']] })).toThrow(/personas\.same-voice/);
    expect(() => readPersonasParams({ colour: 'red' })).toThrow(/personas\.colour: unknown field/);
    expect(() => personasBehaviour.validate?.({ catalogue: '/nonexistent.yml' })).toThrow(
      /personas\.catalogue/,
    );
    expect(readPersonasParams(null).answerWords).toBe(60);
  });

  it('is registered with the simulator, so a scenario can carry a personas block', () => {
    const scenario = parseScenario(
      `models:\n  - name: sim-base:1b\n    personas:\n      catalogue: ${file}\n      same-voice: [[flavour, taste]]\n`,
    );
    expect(scenario.models[0]?.behaviours.personas).toMatchObject({ catalogue: file });
    expect(() =>
      parseScenario('models:\n  - name: sim:1b\n    personas:\n      own-share: 3\n', 's.yml'),
    ).toThrow(/invalid scenario/);
  });
});
