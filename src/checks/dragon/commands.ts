/**
 * The maze game's own commands: `model-gate dragon maze` prints the maze of a seed, and
 * `model-gate dragon play` plays a reference player (no model) and prints its calibration.
 */
import { loadConfig } from '../../config/load.js';
import { integerFlag } from '../../config/overrides.js';
import { parseSeedRange } from '../../config/seedList.js';
import { ExitCode, InputError } from '../../errors.js';
import type { CheckCommands } from '../command.js';
import { checkContext } from '../context.js';
import { analyseDragon } from './analyse.js';
import { dragonDefinitions } from './definitions.js';
import { renderMaze } from './mazeCommand.js';
import { REFERENCE_PLAYERS, type ReferencePlayer, referenceModel } from './players.js';
import { DEFAULT_WALLS, MAX_WALLS } from './protocol.js';
import { ruleFalseAlarmRate } from './rules.js';
import { type DragonConfig, dragonSettingsSchema } from './settings.js';
import type { CheckContext } from '../types.js';

export const dragonCommands: CheckCommands = {
  name: 'dragon',
  description: 'The maze game behind the dragon check',
  commands: [
    {
      name: 'maze',
      description:
        'Print the maze of a seed (protocol dragon-calibration/1): drawing, camp, treasure, walls',
      options: [
        { flags: '--seed <n>', description: 'maze seed (integer ≥ 0)', required: true },
        { flags: '--walls <n>', description: 'interior walls', default: String(DEFAULT_WALLS) },
        {
          flags: '--json',
          description: 'print JSON (camp, treasure, walls as cell+side pairs, wall count)',
        },
      ],
      async run(options, out) {
        const seed = integerFlag(options.seed, '--seed');
        const walls = integerFlag(options.walls ?? String(DEFAULT_WALLS), '--walls');
        if (walls > MAX_WALLS)
          throw new InputError(
            `flag --walls: at most ${MAX_WALLS} interior walls keep an 8×8 maze connected, got ${walls}`,
          );
        out(renderMaze(seed, walls, options.json === true));
        return ExitCode.pass;
      },
    },
    {
      name: 'play',
      description: 'Play a reference player (no model) over seeds and print its calibration',
      options: [
        {
          flags: '--player <name>',
          description: 'random | overconfident | careful',
          required: true,
        },
        { flags: '--seeds <list>', description: 'seeds, e.g. 0-9 or 0-4,7', default: '0-9' },
        { flags: '--walls <n>', description: 'interior walls', default: String(DEFAULT_WALLS) },
        { flags: '--json', description: 'print JSON' },
      ],
      run: playReference,
    },
  ],
};

async function playReference(
  options: Record<string, unknown>,
  out: (text: string) => void,
): Promise<number> {
  const player = String(options.player);
  if (!(REFERENCE_PLAYERS as readonly string[]).includes(player)) {
    throw new InputError(
      `flag --player: expected one of ${REFERENCE_PLAYERS.join(', ')}, got ${JSON.stringify(player)}`,
    );
  }
  const seeds = parseSeedRange(String(options.seeds ?? '0-9'));
  if (!seeds)
    throw new InputError(
      `flag --seeds: expected a range such as "0-9" or "0-4,7", got ${JSON.stringify(options.seeds)}`,
    );
  const walls = integerFlag(options.walls ?? String(DEFAULT_WALLS), '--walls');
  const model = referenceModel(player as ReferencePlayer);
  const loaded = loadConfig({
    // Read with dragon's block alone: its type is then the config dragon reads.
    checks: [{ name: 'dragon', settingsSchema: dragonSettingsSchema }],
    file: null,
    env: {},
    overrides: [
      { path: ['models', 'baseline'], value: model, source: 'flag --player' },
      { path: ['dragon', 'referencePlayers'], value: [player], source: 'flag --player' },
      { path: ['checks'], value: ['dragon'], source: 'dragon play' },
      { path: ['dragon', 'seeds'], value: seeds, source: 'flag --seeds' },
      { path: ['dragon', 'walls'], value: walls, source: 'flag --walls' },
    ],
  });
  const ctx = checkContext(loaded) as CheckContext<DragonConfig>;
  // The analysis plays the reference players itself; no model records are needed.
  const definitions = dragonDefinitions(ctx.config.dragon, ruleFalseAlarmRate(ctx.config));
  const section = analyseDragon([], definitions, ctx.models);
  if (options.json === true) {
    out(`${JSON.stringify(section, null, 2)}\n`);
  } else {
    const { renderDragonSection } = await import('./report/markdown.js');
    out(`${renderDragonSection(section)}\n`);
  }
  return ExitCode.pass;
}
