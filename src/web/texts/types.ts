import type { en } from './en/index.js';

// Every language has the keys of the English texts; a value is a string, a list or a function
// of the same shape (plural forms, numbers put in a sentence).
export type Texts = typeof en;

export type DeepPartial<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly unknown[]
    ? T
    : T extends object
      ? { [K in keyof T]?: DeepPartial<T[K]> }
      : T;
