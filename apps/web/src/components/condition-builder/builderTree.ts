// The builder's working copy of a condition: the domain's editor form (§3.8) with a stable id on every
// node, so React keeps each row (and the input being typed in) in place while siblings come and go.
import {
  ALL_CONDITION,
  type ConditionField,
  type ConditionNode,
  type EditorGroup,
  type EditorNode,
  type EditorRule,
  emptyGroup,
  fromEditorForm,
  parseConditionText,
  toEditorForm,
  ZConditionNode,
} from '@switchyard/domain';

export interface BuilderRule extends EditorRule {
  id: string;
}

export interface BuilderGroup extends Omit<EditorGroup, 'children'> {
  id: string;
  children: BuilderNode[];
}

export type BuilderNode = BuilderGroup | BuilderRule;

/** Where a node sits: the child indexes from the top group down; [] is the top group. */
export type NodePath = readonly number[];

let lastId = 0;
const nextId = () => `c${++lastId}`;

function withIds(node: EditorNode): BuilderNode {
  if (node.type === 'rule') return { ...node, id: nextId() };
  return { ...node, id: nextId(), children: node.children.map(withIds) };
}

export function builderGroup(group: EditorGroup = emptyGroup()): BuilderGroup {
  return withIds(group) as BuilderGroup;
}

/** What the builder reads: stored JSON text, a tree, or nothing (AllCondition). */
export type ConditionValue = string | ConditionNode | null | undefined;

/**
 * The stored condition as a tree. `unreadable` is set when text or shape is not a condition (§3.8); the
 * builder then starts from AllCondition. The depth limit is not applied here: a deeper stored tree is
 * still shown as it is, the limit only stops adding groups.
 */
export function readConditionValue(value: ConditionValue): { tree: ConditionNode; unreadable: boolean } {
  if (value === null || value === undefined || value === '') return { tree: ALL_CONDITION, unreadable: false };
  if (typeof value === 'string') {
    // Read by shape only: a stored value a field no longer takes is shown, to be fixed, not dropped.
    const parsed = parseConditionText(value, Number.POSITIVE_INFINITY, false);
    return parsed.tree ? { tree: parsed.tree, unreadable: false } : { tree: ALL_CONDITION, unreadable: true };
  }
  const parsed = ZConditionNode.safeParse(value);
  return parsed.success ? { tree: parsed.data, unreadable: false } : { tree: ALL_CONDITION, unreadable: true };
}

/** The text the value stands for, to tell a value coming back from our own change from a new one. */
export function conditionValueKey(value: ConditionValue): string {
  if (value === null || value === undefined || value === '') return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function builderFromValue(value: ConditionValue): BuilderGroup {
  return builderGroup(toEditorForm(readConditionValue(value).tree));
}

/** §5.4: the tree to store, invalid leaves and empty groups dropped; nothing left is AllCondition. */
export function storedCondition(group: BuilderGroup): ConditionNode {
  return fromEditorForm(group);
}

export function storedConditionText(group: BuilderGroup): string {
  return JSON.stringify(storedCondition(group));
}

/** A fresh rule of a field (§3.9), with nothing chosen yet (so it is not stored until filled in). */
export function emptyRule(field: ConditionField): BuilderRule {
  const base = { type: 'rule' as const, id: nextId(), var: field.var };
  switch (field.condition) {
    case 'EqualCondition':
      return { ...base, condition: field.condition, values: '' };
    case 'InCondition':
      // weekday: the day is read in a zone, UTC until one is chosen.
      return field.control === 'weekday'
        ? { ...base, condition: field.condition, operation: 'IN', values: [], timezone: 'UTC' }
        : { ...base, condition: field.condition, operation: 'IN', values: [] };
    case 'SegmentCondition':
      return { ...base, condition: field.condition, operation: 'IN', values: [] };
    case 'VarsCondition':
      return { ...base, condition: field.condition, key: '', operation: 'IN', values: [] };
    case 'BetweenCondition':
      return { ...base, condition: field.condition, values: { Start: '', End: '', Timezone: 'UTC' } };
    case 'CompareIntCondition':
      return { ...base, condition: field.condition, values: { Value: '', Comparator: '>' } };
  }
}

export function newGroup(): BuilderGroup {
  return builderGroup();
}

function mapGroupAt(group: BuilderGroup, path: NodePath, change: (group: BuilderGroup) => BuilderGroup): BuilderGroup {
  if (path.length === 0) return change(group);
  const [index, ...rest] = path;
  return {
    ...group,
    children: group.children.map((child, position) => {
      if (position !== index) return child;
      if (rest.length === 0) {
        if (child.type !== 'group') throw new Error('Not a group');
        return change(child);
      }
      if (child.type !== 'group') throw new Error('Not a group');
      return mapGroupAt(child, rest, change);
    }),
  };
}

/** §2.7: a group left with no children goes back to And without Not (its toggles are disabled then). */
function settle(group: BuilderGroup): BuilderGroup {
  return group.children.length === 0 ? { ...group, condition: 'AND', not: false } : group;
}

export function updateGroup(
  root: BuilderGroup,
  path: NodePath,
  patch: Partial<Pick<BuilderGroup, 'condition' | 'not'>>,
): BuilderGroup {
  return mapGroupAt(root, path, (group) => ({ ...group, ...patch }));
}

export function appendChild(root: BuilderGroup, path: NodePath, child: BuilderNode): BuilderGroup {
  return mapGroupAt(root, path, (group) => ({ ...group, children: [...group.children, child] }));
}

export function replaceChild(root: BuilderGroup, path: NodePath, child: BuilderNode): BuilderGroup {
  const parent = path.slice(0, -1);
  const index = path[path.length - 1];
  return mapGroupAt(root, parent, (group) => ({
    ...group,
    children: group.children.map((current, position) => (position === index ? child : current)),
  }));
}

/** Deletes the node at `path` (never the top group). */
export function removeNode(root: BuilderGroup, path: NodePath): BuilderGroup {
  if (path.length === 0) return root;
  const parent = path.slice(0, -1);
  const index = path[path.length - 1];
  return mapGroupAt(root, parent, (group) =>
    settle({ ...group, children: group.children.filter((_, position) => position !== index) }),
  );
}
