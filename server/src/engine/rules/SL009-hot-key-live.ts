import type { RuleInfo } from './rule';

/**
 * SL009 is made from live Contributor Insights data, not from the code, so it has no
 * check here: the heat service (server/src/heat/hot-key-live.ts) reports it with this
 * metadata, the one definition settings, SARIF and the docs list too.
 */
export const hotKeyLive: RuleInfo = {
  code: 'SL009',
  category: 'hot-key-live',
  defaultSeverity: 'info',
  summary: "A key whose live traffic is above 80% of a partition's ceiling, or a shard above 3× its set's mean.",
  fixKinds: [],
  messages: { liveTraffic: 'live traffic throttled, near a partition’s ceiling, or uneven across shards' },
};
