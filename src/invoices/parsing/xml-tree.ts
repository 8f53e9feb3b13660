/**
 * A minimal, namespace-free element tree and the lookups the format readers need.
 *
 * Namespace prefixes differ between producers (cbc:/cac: vs. a default namespace, rsm:/ram:
 * vs. others), so elements are addressed by local name only.
 */
export interface XmlElement {
  /** Local name, prefix removed. */
  readonly name: string;
  /** Attributes by local name. */
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** Concatenated direct text content, trimmed. */
  readonly text: string;
}

/** Follows a path of child names; the first match wins at each step. */
export function childAt(element: XmlElement | undefined, ...path: string[]): XmlElement | undefined {
  let current = element;
  for (const name of path) {
    current = current?.children.find((child) => child.name === name);
    if (current === undefined) return undefined;
  }
  return current;
}

/** All children with the given name, in document order. */
export function childrenNamed(element: XmlElement | undefined, name: string): XmlElement[] {
  return element ? element.children.filter((child) => child.name === name) : [];
}

/** All elements reached by the path; the last step collects every match. */
export function allAt(element: XmlElement | undefined, ...path: string[]): XmlElement[] {
  const last = path.at(-1);
  if (last === undefined) return element ? [element] : [];
  return childrenNamed(childAt(element, ...path.slice(0, -1)), last);
}

/** Trimmed text of an element; null when absent or empty. */
export function textOf(element: XmlElement | undefined): string | null {
  const text = element?.text.trim();
  return text ? text : null;
}

export function textAt(element: XmlElement | undefined, ...path: string[]): string | null {
  return textOf(childAt(element, ...path));
}

export function attributeOf(element: XmlElement | undefined, name: string): string | null {
  const value = element?.attributes[name]?.trim();
  return value ? value : null;
}

/** The first element found among alternative paths (format versions name things differently). */
export function firstOf(element: XmlElement | undefined, ...paths: string[][]): XmlElement | undefined {
  for (const path of paths) {
    const found = childAt(element, ...path);
    if (found) return found;
  }
  return undefined;
}
