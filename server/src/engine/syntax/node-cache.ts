import { Node, Tree } from 'web-tree-sitter';

/**
 * web-tree-sitter answers `.type` and `.parent` by calling into wasm every time, and
 * `.parent` makes a new node object each time. The evaluators walk up from every
 * identifier they resolve (its scopes, its statement), through the same ancestors again
 * and again: in a check of bench/workspace, 546,000 `.type` asks on 212,000 node objects
 * and 128,000 `.parent` asks. Both answers are kept: a node's type on the node object (a
 * node never changes type), a node's parent per tree by node id (ids are unique within a
 * tree), dropped when the tree is edited, since an edit moves the nodes after it.
 */

const parents = new WeakMap<Tree, Map<number, Node | null>>();

function install(): void {
  const node = Node.prototype as unknown as Record<string, unknown>;
  if (node.shardlensCaches) return;
  Object.defineProperty(node, 'shardlensCaches', { value: true });
  const readType = Object.getOwnPropertyDescriptor(node, 'type')?.get;
  const readParent = Object.getOwnPropertyDescriptor(node, 'parent')?.get;
  if (readType) {
    Object.defineProperty(node, 'type', {
      configurable: true,
      get(this: { knownType?: string }) {
        return (this.knownType ??= readType.call(this) as string);
      },
    });
  }
  if (readParent) {
    Object.defineProperty(node, 'parent', {
      configurable: true,
      get(this: Node) {
        let known = parents.get(this.tree);
        if (!known) parents.set(this.tree, (known = new Map()));
        let parent = known.get(this.id);
        if (parent === undefined) known.set(this.id, (parent = readParent.call(this) as Node | null));
        return parent;
      },
    });
  }
  const edit = Tree.prototype.edit;
  Tree.prototype.edit = function (this: Tree, ...args: Parameters<Tree['edit']>) {
    parents.delete(this);
    return edit.apply(this, args);
  };
  // A deleted tree's nodes are not asked again: its parents go with it, not when the tree object is collected.
  const remove = Tree.prototype.delete;
  Tree.prototype.delete = function (this: Tree) {
    parents.delete(this);
    remove.call(this);
  };
}

install();
