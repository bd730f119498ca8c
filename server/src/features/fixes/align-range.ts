import type { FixProvider } from './fix-model';
export const alignShardRange: FixProvider = () => [];
