export const x = 42;
