import type { FixProvider } from './fix-model';
export const spreadCounter: FixProvider = () => [];
