// A preload (`node --import <this file's URL> ...`) that writes one line to the file named by OUTFIT_TEST_INTL_LOG
// for every Intl formatter the process builds: the command it runs (`run`, `render-worker`, ...) and the formatter's
// kind. A test reads it to tell which process built which (test/cli/run-zone-table.test.ts).
import { appendFileSync } from 'node:fs';

const log = process.env.OUTFIT_TEST_INTL_LOG;
if (log) {
  for (const kind of ['DateTimeFormat', 'NumberFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'Segmenter', 'DisplayNames']) {
    const Original = Intl[kind];
    const note = () => appendFileSync(log, `${process.argv[2]} ${kind}\n`);
    Intl[kind] = new Proxy(Original, {
      construct(target, args, newTarget) {
        note();
        return Reflect.construct(target, args, newTarget);
      },
      apply(target, self, args) {
        note();
        return Reflect.apply(target, self, args);
      },
    });
  }
}
