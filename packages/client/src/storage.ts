// Where the client keeps the session: any object with getItem, setItem and removeItem, whose methods may answer
// at once (localStorage) or with a promise (React Native's AsyncStorage, an encrypted store).

export interface SessionStorage {
  getItem(key: string): string | null | undefined | Promise<string | null | undefined>;
  setItem(key: string, value: string): void | Promise<void>;
  removeItem(key: string): void | Promise<void>;
}

/** A storage that lives as long as the client: a backend's, or a test's. */
export function memoryStorage(): SessionStorage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

/** The browser's localStorage where there is one that works (not in a private mode that refuses writes). */
export function browserStorage(): Storage | undefined {
  try {
    const storage = (globalThis as { localStorage?: Storage }).localStorage;
    if (!storage) return undefined;
    const probe = '__callsign_probe__';
    storage.setItem(probe, probe);
    storage.removeItem(probe);
    return storage;
  } catch {
    return undefined;
  }
}
