/** true when A and B are the same set of values, false otherwise (no distribution over unions). */
export type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Compiles only when its argument is true: `Assert<Exact<Ours, Schemas['Theirs']>>`. */
export type Assert<T extends true> = T;
