/** `shardlens --help`: every command and option, as the README's CLI section lists them. */
export const USAGE = `Usage: shardlens check [paths...] [options]
       shardlens keys [paths...] [--format text|json]
                                      list tables, indexes and logical keys with their call sites
       shardlens keys [paths...] --match KEY... [--format text|json]
                                      the logical key and shard each concrete key belongs to
                                      (e.g. a key Contributor Insights reports: BOARD#global#7)
       shardlens heat [paths...] --table T [--index I] [--window 15m|1h|3h|24h]
                      [--endpoint URL] [--profile P] [--region R] [--format text|json]
                                      live Contributor Insights and CloudWatch data for a table,
                                      linked to the logical keys of the code (see docs/heat.md)
       shardlens expr --pk-attr A --template T (--shards N | --shard-values 1..10) [...]
                                      per-shard KeyConditionExpressions and query code
                                      (shardlens expr --help, docs/expr.md)
       shardlens lab [options]        a local DynamoDB + CloudWatch endpoint that throttles hot keys
       shardlens lab demo             a hot partition and its cure, in numbers (see docs/lab.md)

Finds DynamoDB hot-partition risks in TypeScript, JavaScript and Python code.
Paths are files or folders (default: the current folder); after \`--\` every
argument is a path, even one that starts with \`-\`.

Options:
  --format text|json|sarif|github|gitlab|junit
                                output format (default: text; keys: text or json);
                                github: workflow annotations, gitlab: Code Quality JSON,
                                junit: JUnit XML (a finding reaching --fail-on fails its case)
  --fail-on error|warning|info|never
                                exit 1 when a finding has at least this severity
                                (default: error)
  --max-file-size <KB>          skip files larger than this (default: 2048)
  --contexts app,test,example,script
                                which code to report on (default: all; test,
                                example and script code run once: info at most)
  --cache                       check: keep each file's analysis and reuse it while the file
                                and the modules it reads are unchanged (in
                                node_modules/.cache/shardlens, or .shardlens-cache/)
  --cache-location DIR          check: keep the cache in DIR (implies --cache)
  --print-config FILE           check: the project configuration that applies to FILE
                                (shardlens.config.json, package.json "shardlens" or
                                pyproject.toml [tool.shardlens], the nearest one up)
  --config FILE                 check: use this project configuration for every file,
                                in place of the nearest one (its globs are relative to
                                its folder)
  --baseline FILE               check: findings recorded in FILE do not fail the run
  --write-baseline FILE         check: record every finding in FILE (sorted JSON)
  --report-unused-ignores       check: list shardlens-ignore comments that silence
                                nothing (and fail at --fail-on warning or lower)
  --changed [REF]               check: analyse every file, report only findings in files
                                changed since REF (committed or not, new files too), the
                                modules importing them and the files sharing their logical
                                keys. Default REF: the merge base with the branch's
                                upstream, else HEAD. A next word that exists as a path is
                                a path: write --changed=REF to be sure
  --staged                      check: the same for the staged changes (pre-commit)
  --quiet                       print findings only: no summary, no skipped files
  --stats                       check: after the summary, how many DynamoDB calls were
                                understood and why the others were not (text output;
                                JSON always has it in "coverage")
  --match KEY...                keys: the concrete keys to match (after the paths)
  --heat                        check: add live evidence (throttles, share of traffic) from AWS
                                to findings, and SL009 hot-key-live findings
  --table T, --index I          heat: the table (and index); check --heat: tables to read
                                (repeatable; default every table the code names)
  --window 15m|1h|3h|24h        heat: how far back to look (default 1h)
  --endpoint URL                heat: one URL for DynamoDB and CloudWatch (e.g. the lab)
  --profile P, --region R       heat: AWS profile and region (default: the SDK's default
                                chain; credentials are never taken as options)
  --map-table NAME=TABLE        heat: the account's table for a table the code names by an
                                environment variable ('$SCORES_TABLE_NAME=scores-prod');
                                repeatable. Such names are never sent to AWS unmapped
  --color, --no-color           force or disable coloured text output
  -h, --help                    show this help
  -v, --version                 show the version

Exit codes: 0 no finding reached --fail-on, 1 one did, 2 usage error.
keys exits 0 (also when a key matches no template; the output says "no template").
heat exits 0 with a report, 1 when AWS gave none (the message says what to do), 2 usage error.`;
