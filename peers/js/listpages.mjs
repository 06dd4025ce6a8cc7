// listpages.mjs PATH: writes with parquet-wasm (arrow-rs) a file of
// 20,000 rows of an id (INT64) and a list of strings (row i: null when
// i % 7 == 0, else i % 4 strings "i.j"), without dictionaries, in pages of
// about 4 KiB with page statistics, so that both columns have a page
// index (arrow-rs writes the repetition level histograms in the column
// index) and their pages break at different rows. For
// peers/interop's TestWasmListPageFilter. Prints "#FILE PATH", "#END".
import { writeFileSync } from 'node:fs';
import * as a from 'apache-arrow';
import * as pw from 'parquet-wasm';

const N = 20000;
const path = process.argv[2];
const table = new a.Table({
  id: a.vectorFromArray(Array.from({ length: N }, (_, i) => BigInt(i)), new a.Int64()),
  tags: a.vectorFromArray(
    Array.from({ length: N }, (_, i) => (i % 7 === 0 ? null : Array.from({ length: i % 4 }, (_, j) => `${i}.${j}`))),
    new a.List(new a.Field('item', new a.Utf8(), true)),
  ),
});
const props = new pw.WriterPropertiesBuilder().setDictionaryEnabled(false).setStatisticsEnabled(pw.EnabledStatistics.Page)
  .setDataPageSizeLimit(4096).setWriteBatchSize(256).build();
writeFileSync(path, pw.writeParquet(pw.Table.fromIPCStream(a.tableToIPC(table, 'stream')), props));
console.log(`#FILE ${path}`);
console.log('#END');
