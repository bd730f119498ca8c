// Runs `shardlens lab` through its CLI entry (server/src/cli/lab.ts), as the
// bundled CLI will: node --import tsx test/lab/run-lab-main.ts [lab args].
import { labMain } from '../../server/src/cli/lab';

void labMain(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
