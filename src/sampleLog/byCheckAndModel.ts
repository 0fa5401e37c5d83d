/**
 * The map of one check and model inside a two-level map (check → model → …), made on first
 * use: lookups by check and model without a joined key string per record.
 */
export function byCheckAndModel<V>(
  root: Map<string, Map<string, Map<string, V>>>,
  check: string,
  model: string,
): Map<string, V> {
  let byModel = root.get(check);
  if (!byModel) {
    byModel = new Map();
    root.set(check, byModel);
  }
  let inner = byModel.get(model);
  if (!inner) {
    inner = new Map();
    byModel.set(model, inner);
  }
  return inner;
}
