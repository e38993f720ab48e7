type ErrorClass<T extends Error> = abstract new (...args: never[]) => T;

/**
 * Builds a cross-realm type guard for an error class and every subclass of it. `instanceof`
 * answers within one copy of the SDK; an error from another realm (a second copy of the package,
 * an iframe, a worker, a `vm` context) has its own classes, so the guard walks the error's
 * prototype chain and compares each class's name with this class's name. No list of names is
 * kept: a new subclass is recognised by the guards of all its ancestors.
 *
 * @internal
 */
export function guardFor<T extends Error>(cls: ErrorClass<T>): (error: unknown) => error is T {
  const name = cls.name;
  return (error: unknown): error is T => error instanceof cls || chainHas(error, name);
}

function chainHas(error: unknown, name: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  // A foreign Error's own `name` field says what it is even when the class name was lost.
  if ((error as { name?: unknown }).name === name) return true;
  for (
    let proto = Object.getPrototypeOf(error);
    proto !== null && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    const ctor = Object.hasOwn(proto, 'constructor') ? (proto as { constructor?: unknown }).constructor : undefined;
    if (typeof ctor === 'function' && ctor.name === name) return true;
  }
  return false;
}
