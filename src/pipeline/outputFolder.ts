/**
 * The folders a command writes into (output.dir, the sample log's folder, --out), made and
 * checked before anything is measured: a folder that cannot be written is bad input (exit 2),
 * said with the setting to change, not an error after the run's requests were spent.
 */
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { refuseLinkedFolder } from '../files/workspace.js';
import { errorMessage } from '../text/format.js';
import { shownPath } from '../text/shownPath.js';

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a file of that name is in the way',
};

/** The hint of every unwritable output folder: where its name comes from. */
const LINKED_FOLDER_HINT =
  'a link committed in the repository could send every report file anywhere the runner can write: remove the link, or name a folder outside the working folder (--output-dir for run, --out for demo and analyze)';

export const OUTPUT_FOLDER_HINT =
  'choose a folder this user can write: --output-dir DIR for run (output.dir in the config, the action input output-dir), --out DIR for demo and analyze';

export async function ensureWritableFolder(dir: string): Promise<void> {
  // A folder link committed in the checkout (model-gate-out → elsewhere) is refused first.
  refuseLinkedFolder(dir, 'output folder', LINKED_FOLDER_HINT);
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const reason = REASONS[code] ?? errorMessage(error);
    throw new InputError(
      `${shownPath(dir, process.cwd())}: cannot write the output folder: ${reason}`,
      [OUTPUT_FOLDER_HINT],
    );
  }
}
