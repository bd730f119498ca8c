import type { RuleInfo } from './rule';

/**
 * SL009 is made from live Contributor Insights data, not from the code, so it has no
 * check here: the heat service (server/src/heat/hot-key-live.ts) reports it with this
 * metadata, the one definition settings, SARIF and the docs list too.
 */
export const hotKeyLive: RuleInfo = {
  code: 'SL009',
  category: 'hot-key-live',
  // A throttled key had requests refused; one near its ceiling or with an uneven shard
  // has not yet: a warning the first, a note the others.
  defaultSeverity: 'warning',
  summary:
    "A key whose live traffic throttled, ran above 80% of a partition's ceiling, or put a shard above 3× its set's mean.",
  fixKinds: [],
  messages: {
    throttled: 'live traffic throttled: requests refused at a partition’s ceiling',
    liveTraffic: 'live traffic near a partition’s ceiling, or uneven across shards',
  },
  messageSeverities: { throttled: 'warning', liveTraffic: 'info' },
};
