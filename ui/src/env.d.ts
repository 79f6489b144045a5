// Vite bundles CSS imported for its side effect; TypeScript only needs to know such imports exist.
declare module '*.css';
