/** The tool version recorded in every report. Kept in step with package.json by a test. */
export const TOOL_VERSION = '0.1.0';
export const TOOL_NAME = 'model-gate';
