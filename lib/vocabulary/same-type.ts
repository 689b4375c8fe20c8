/** True when A and B are the same type: a domain's check that the document its schema builds is the stored one. */
export type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
