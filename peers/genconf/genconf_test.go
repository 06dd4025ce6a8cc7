package genconf

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/pqgen/pqgen/gen"
	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/peers/internal/nodejs"
	"github.com/pqgen/pqgen/runtime"
)

// Stages of a corpus file's round trip, in order. A file's verdict is the
// first stage it fails at, or stagePass.
const (
	stageGenerate = "generate"        // gen.FromFile or gen.Generate fails
	stageCompile  = "compile"         // the generated code does not compile
	stageRead     = "read"            // the generated ReadTFile fails on the original
	stageWrite    = "write"           // the generated WriteTFile fails on the rows read
	stageParallel = "parallel-read"   // NewTReader with WithReadParallelism(2) reads other rows, or fails
	stageSchema   = "schema"          // the copy's schema (our footer reader) differs from the original's
	stageDuckA    = "duckdb-read"     // DuckDB cannot read the original
	stageDuckB    = "duckdb-copy"     // DuckDB cannot read the copy
	stageTypes    = "duckdb-types"    // DuckDB sees other columns or types in the copy
	stageRows     = "duckdb-rows"     // row counts differ, or EXCEPT ALL is not empty both ways
	stagePushdown = "duckdb-pushdown" // DuckDB counts other rows of the copy with filter pushdown (our statistics) than without
	stagePass     = "pass"
)

// excluded are the corpus files that cannot pass, by path relative to the
// corpus root: the stage each must stop at and why. A file listed here
// that fails at another stage, or passes, fails the test, so the table
// cannot rot.
var excluded = map[string]struct{ stage, reason string }{
	// Our reader refuses by design.
	"data/large_string_map.brotli.parquet": {stageRead, "its dictionary page is 1 GiB uncompressed (over 2 GB of strings in all), " +
		"over the reader's default WithMaxPageSize of 256 MiB; ReadTFile holds every row in memory, so raising the limit would need several GB here"},
	// DuckDB 1.5.6 cannot read the original.
	"data/hadoop_lz4_compressed.parquet":     {stageDuckA, `DuckDB has no LZ4 (codec 5, Hadoop framing): "Unsupported compression codec \"LZ4\""`},
	"data/non_hadoop_lz4_compressed.parquet": {stageDuckA, `DuckDB has no LZ4 (codec 5, raw frames): "Unsupported compression codec \"LZ4\""`},
	"data/map_no_value.parquet":              {stageDuckA, `a MAP_KEY_VALUE group with a key and no value: DuckDB says "MAP_KEY_VALUE requires two children"`},
	"data/encrypt_columns_and_footer.parquet.encrypted": {stageDuckA, "columns encrypted with their own keys (double_field, float_field): " +
		"DuckDB takes a footer key only, and then fails on every column with \"Could not read enough bytes\""},
	"data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted": {stageDuckA, "columns encrypted with their own keys: " +
		"DuckDB takes a footer key only, and then fails on every column with \"Could not read enough bytes\""},
	"data/encrypt_columns_and_footer_aad.parquet.encrypted": {stageDuckA, "an AAD prefix (stored) and column keys: DuckDB takes neither and fails " +
		"authenticating the footer (\"Computed AES tag differs from read AES tag\")"},
	"data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted": {stageDuckA, "an AAD prefix the reader must supply, and column keys: " +
		"DuckDB takes neither (\"Computed AES tag differs from read AES tag\")"},
	"data/encrypt_columns_and_footer_ctr.parquet.encrypted": {stageDuckA, "AES_GCM_CTR_V1: DuckDB supports AES_GCM_V1 only"},
	"data/encrypt_columns_plaintext_footer.parquet.encrypted": {stageDuckA, "a plaintext (signed) footer with columns encrypted with their own keys: " +
		"DuckDB refuses a footer key for a plaintext footer (\"is not encrypted, but 'encryption_config' was set\") and has no column keys"},
	"data/external_key_material_java.parquet.encrypted": {stageDuckA, "keys wrapped by a KMS (parquet-mr key tools, key material in " +
		"the .json beside it; this test unwraps them for our reader, see kms_test.go): DuckDB has no KMS and no column keys"},
	// shredded_variant/: DuckDB 1.5.6 cannot read the original.
	"shredded_variant/case-041.parquet": {stageDuckA, "a shredded Variant array without the optional value column (testArrayMissingValueColumn, " +
		"a valid Variant): DuckDB fails with INTERNAL Error \"The Variant column must have 'metadata' and 'value' as the first two columns\""},
	"shredded_variant/case-131.parquet": {stageDuckA, "a shredded Variant without the optional value column (testMissingValueColumn, " +
		"a valid Variant): DuckDB fails with INTERNAL Error \"The Variant column must have 'metadata' and 'value' as the first two columns\""},
	"shredded_variant/case-088.parquet": {stageDuckA, "array elements without the optional value column (testArrayMissingElementValueColumn, " +
		"a valid Variant): DuckDB fails with INTERNAL Error \"Calling StructStats::GetChildStats but there are no stats for this index\""},
	// shredded_variant/: files cases.json says readers must refuse; the
	// generated reader (runtime.VariantReader) does, with cases.json's
	// reason.
	"shredded_variant/case-040.parquet": {stageRead, "an array element with both value and typed_value (testArrayWithElementValueTypedValueConflict): " +
		"cases.json expects \"conflicting value and typed_value\", the reader's error"},
	"shredded_variant/case-127.parquet": {stageRead, "typed_value INT(32,false), outside the spec's shredded types (testUnsignedInteger): " +
		"cases.json expects \"Unsupported shredded value type\", the reader's error"},
	"shredded_variant/case-128.parquet": {stageRead, "a non-object value beside shredded fields (testEmptyPartiallyShreddedObjectConflict): " +
		"cases.json expects \"non-object value with shredded fields\", the reader's error"},
	"shredded_variant/case-137.parquet": {stageRead, "typed_value FIXED_LEN_BYTE_ARRAY(4) without UUID or DECIMAL (testFixedLengthByteArray): " +
		"cases.json expects \"Unsupported shredded value type\", the reader's error"},
	// An INVALID file (cases.json: readers may fail or read the shredded
	// value): shredded field b missing in typed_value but present in
	// value. pqgen reads the shredded column (the spec's rule when both
	// exist), so the copy has no b; DuckDB takes b from value.
	"shredded_variant/case-043-INVALID.parquet": {stageRows, "an INVALID file (testPartiallyShreddedObjectMissingFieldConflict): a shredded field also in value; " +
		"pqgen keeps the shredded column's answer (missing), DuckDB the value's copy"},
}

// standIns are, for files DuckDB cannot read, another corpus file DuckDB
// reads that holds the same rows: DuckDB compares the stand-in with the
// copy instead, and that comparison must pass (the file stays in the
// exclusion table, since the original itself is not compared). The
// stand-in's columns of duckSkip are left out.
var standIns = map[string]struct{ file, why string }{
	"data/hadoop_lz4_compressed.parquet":     {"data/lz4_raw_compressed.parquet", "the same 4 rows (c0, c1, v11) with LZ4_RAW"},
	"data/non_hadoop_lz4_compressed.parquet": {"data/lz4_raw_compressed.parquet", "the same 4 rows (c0, c1, v11) with LZ4_RAW"},
	"data/encrypt_columns_and_footer.parquet.encrypted": {"data/uniform_encryption.parquet.encrypted",
		"the same 50 rows of parquet-cpp's encryption tests, encrypted with the footer key only (runtime's checkEncryptedCorpusValues)"},
	"data/encrypt_columns_and_footer_aad.parquet.encrypted": {"data/uniform_encryption.parquet.encrypted",
		"the same 50 rows of parquet-cpp's encryption tests, encrypted with the footer key only"},
	"data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted": {"data/uniform_encryption.parquet.encrypted",
		"the same 50 rows of parquet-cpp's encryption tests, encrypted with the footer key only"},
	"data/encrypt_columns_and_footer_ctr.parquet.encrypted": {"data/uniform_encryption.parquet.encrypted",
		"the same 50 rows of parquet-cpp's encryption tests, encrypted with the footer key only"},
	"data/encrypt_columns_plaintext_footer.parquet.encrypted": {"data/uniform_encryption.parquet.encrypted",
		"the same 50 rows of parquet-cpp's encryption tests, encrypted with the footer key only"},
}

// duckSkip are top-level columns DuckDB cannot read in an original that
// our reader reads, by corpus path: DuckDB compares the file without them
// (the copy's schema and DuckDB's column types are still compared whole).
// The test fails if DuckDB reads one of them after all.
var duckSkip = map[string]struct {
	cols   []string
	reason string
}{
	"data/uniform_encryption.parquet.encrypted": {[]string{"int64_field"}, "DuckDB 1.5.6 fails to decrypt this repeated INT64 column " +
		"(\"Computed AES tag differs from read AES tag\") though the seven other columns decrypt with the same footer key; " +
		"runtime's TestReadEncryptedCorpus reads its expected values. DuckDB fails the same way on a repeated column our writer " +
		"encrypts with the footer key, and reads the required columns beside it"},
}

// Keys of the encrypted corpus files (data/README.md; NOTES.md: the ASCII
// bytes of the digit strings).
const (
	footerKey = "0123456789012345"
	doubleKey = "1234567890123450" // column double_field
	floatKey  = "1234567890123451" // column float_field
	aadPrefix = "tester"
)

// entry is one corpus file of the run.
type entry struct {
	rel      string // path relative to the corpus root
	typ      string // Go type generated for it
	file     string // the generated file of typ
	out      string // the copy's file name; typ + ".parquet" when empty
	opts     []runtime.ReaderOption
	optsCode string // the same options as Go source, for the driver
	// writeCode: writer options, as Go source, the driver writes the copy
	// with (after "out, rows"; empty: none).
	writeCode string
	duckKey   string // footer key DuckDB reads the original with
	stage     string // the verdict
	detail    string // why it failed
	rows      int    // rows read by the generated reader
}

// outName is the file name of the entry's copy.
func (e *entry) outName() string {
	if e.out != "" {
		return e.out
	}
	return e.typ + ".parquet"
}

// buildAndRun builds the generated files and the driver of the entries
// built into dir (the types whose files do not compile get the compile
// verdict and are left out, one build after another, until the rest
// builds; what names the test, for driverDir), runs the driver over the
// files under root, writing the copies to dir/out, and gives each entry
// the driver's verdict: its read or write stage, or the schema stage when
// the copy's schema differs from the original's. The entries that built
// are returned, those that reached the comparison with an empty stage,
// with the output directory and the build and run times.
func buildAndRun(t *testing.T, what, dir, root string, files map[string][]byte, built []*entry) ([]*entry, string, time.Duration, time.Duration) {
	t.Helper()
	start := time.Now()
	var bin string
	for bin == "" {
		var bad map[string]string
		var out []byte
		bin, bad, out = buildDriver(t, driverDir(t, what), dir, files, built)
		if bin != "" {
			break
		}
		kept := built[:0]
		for _, e := range built {
			if msg, ok := bad[e.file]; ok {
				e.stage, e.detail = stageCompile, msg
				delete(files, e.file)
				continue
			}
			kept = append(kept, e)
		}
		if len(kept) == len(built) {
			t.Fatalf("go build of the generated package fails outside the generated files:\n%s", out)
		}
		built = kept
	}
	buildTime := time.Since(start)
	outDir := filepath.Join(dir, "out")
	if err := os.Mkdir(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	results := runDriver(t, bin, root, outDir)
	runTime := time.Since(start) - buildTime
	for _, e := range built {
		r, ok := results[e.rel]
		if !ok {
			t.Fatalf("the driver printed nothing for %s", e.rel)
		}
		e.rows = r.Rows
		if r.Stage != "" {
			e.stage, e.detail = r.Stage, r.Err
			continue
		}
		if d := schemaDiff(filepath.Join(root, e.rel), filepath.Join(outDir, e.outName()), e.opts); d != "" {
			e.stage, e.detail = stageSchema, d
		}
	}
	return built, outDir, buildTime, runTime
}

// keyOptions returns the reader options of an encrypted corpus file, as
// values and as Go source.
func keyOptions(rel string) ([]runtime.ReaderOption, string) {
	if !strings.HasSuffix(rel, ".encrypted") {
		return nil, ""
	}
	opts := []runtime.ReaderOption{runtime.WithFooterKey([]byte(footerKey)),
		runtime.WithColumnKey("double_field", []byte(doubleKey)), runtime.WithColumnKey("float_field", []byte(floatKey))}
	code := fmt.Sprintf("runtime.WithFooterKey([]byte(%q)), runtime.WithColumnKey(\"double_field\", []byte(%q)), runtime.WithColumnKey(\"float_field\", []byte(%q))",
		footerKey, doubleKey, floatKey)
	if strings.Contains(rel, "_aad") {
		opts = append(opts, runtime.WithAADPrefix([]byte(aadPrefix)))
		code += fmt.Sprintf(", runtime.WithAADPrefix([]byte(%q))", aadPrefix)
	}
	return opts, code
}

// typeName turns a corpus path into a distinct exported Go identifier:
// "data/geospatial/crs-srid.parquet" -> "GeospatialCrsSrid".
func typeName(rel string) string {
	base := strings.TrimPrefix(rel, "data/")
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".encrypted"), ".parquet")
	var b strings.Builder
	up := true
	for _, r := range base {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	s := b.String()
	if s == "" || !unicode.IsLetter(rune(s[0])) {
		s = "F" + s
	}
	return s
}

// TestGeneratedCodeRoundTripsCorpus is issue #5's conformance item: for
// every Parquet file under data/ (and shredded_variant/, for Variant
// columns), `pqgen -from` code compiles, its ReadTFile reads every row,
// its WriteTFile writes them back, and DuckDB finds the two files hold the
// same rows.
func TestGeneratedCodeRoundTripsCorpus(t *testing.T) {
	root := corpus.Dir(t)
	node := needNode(t)
	start := time.Now()
	var entries []*entry
	var err error
	types := map[string]string{}
	for _, rel := range corpus.ParquetFiles(t) {
		if !strings.HasPrefix(rel, "data/") && !strings.HasPrefix(rel, "shredded_variant/") {
			continue
		}
		e := &entry{rel: rel, typ: typeName(rel)}
		if prev, dup := types[e.typ]; dup {
			t.Fatalf("%s and %s map to the same type name %s", prev, rel, e.typ)
		}
		types[e.typ] = rel
		e.opts, e.optsCode = keyOptions(rel)
		if e.opts != nil {
			e.duckKey = footerKey
		}
		if strings.Contains(rel, "external_key_material") {
			// KMS-wrapped keys: DuckDB is given none (it has no KMS).
			e.duckKey = ""
			if e.opts, e.optsCode, err = kmsOptions(filepath.Join(root, rel)); err != nil {
				t.Fatalf("%s: unwrapping the keys: %v", rel, err)
			}
		}
		entries = append(entries, e)
	}
	if len(entries) < 150 {
		t.Fatalf("only %d Parquet files under %s/data and shredded_variant", len(entries), root)
	}

	// Generate every type into one package: one file per type.
	files := map[string][]byte{}
	var built []*entry
	for _, e := range entries {
		p, err := gen.FromFile(filepath.Join(root, e.rel), "main", e.typ, e.opts...)
		if err != nil {
			e.stage, e.detail = stageGenerate, err.Error()
			continue
		}
		out, err := gen.Generate(p, "")
		if err != nil {
			e.stage, e.detail = stageGenerate, err.Error()
			continue
		}
		for name, b := range out {
			if _, dup := files[name]; dup {
				t.Fatalf("%s: generated file %s twice", e.rel, name)
			}
			files[name] = b
			e.file = name
		}
		built = append(built, e)
	}
	genTime := time.Since(start)
	dir := t.TempDir()
	built, outDir, buildTime, runTime := buildAndRun(t, "corpus", dir, root, files, built)
	var jobs []nodejs.ExceptJob
	for _, e := range built {
		if e.stage == "" {
			jobs = append(jobs, nodejs.ExceptJob{Name: e.rel, A: filepath.Join(root, e.rel), B: filepath.Join(outDir, e.outName()), FooterKey: e.duckKey, Skip: duckSkip[e.rel].cols})
		}
	}

	// Stand-ins for originals DuckDB cannot read.
	const standInPrefix = "stand-in for "
	for _, e := range built {
		si, ok := standIns[e.rel]
		if !ok || e.stage != "" {
			continue
		}
		key := ""
		if strings.HasSuffix(si.file, ".encrypted") {
			key = footerKey
		}
		jobs = append(jobs, nodejs.ExceptJob{Name: standInPrefix + e.rel, A: filepath.Join(root, si.file), B: filepath.Join(outDir, e.outName()),
			FooterKey: key, Skip: duckSkip[si.file].cols})
	}

	// DuckDB compares each pair, and a control pair that differs: the 8
	// rows of alltypes_plain against the copy of alltypes_plain.snappy,
	// which holds 2 of them (ids 6 and 7) but as rows 0 and 1: with the
	// row numbers compared, all 8 and all 2 differ. A comparison that
	// cannot see a difference fails the test.
	const control = "control: alltypes_plain vs the copy of alltypes_plain.snappy"
	jobs = append(jobs, nodejs.ExceptJob{Name: control, A: filepath.Join(root, "data/alltypes_plain.parquet"), B: filepath.Join(outDir, "AlltypesPlainSnappy.parquet")})
	duckStart := time.Now()
	duck := nodejs.Except(t, node, dir, jobs)
	duckTime := time.Since(duckStart)
	if c := duck[control]; c.Error != "" || c.RowsA != 8 || c.RowsB != 2 || c.AMinusB != 8 || c.BMinusA != 2 {
		t.Errorf("%s: %+v, want 8 and 2 rows, 8 only in the first, 2 only in the second", control, c)
	}
	normalized := 0
	for _, r := range duck {
		if len(r.Normalized) > 0 {
			normalized++
		}
	}
	t.Logf("%d comparisons had columns holding maps or floats, compared as sorted entry lists and text", normalized)
	logSlowest(t, duck)
	duckVerdicts(t, built, duck)

	// Stand-in comparisons must pass.
	standInPass := 0
	for _, e := range built {
		si, ok := standIns[e.rel]
		if !ok {
			continue
		}
		r, ran := duck[standInPrefix+e.rel]
		if !ran {
			t.Errorf("%s: no stand-in comparison (the copy failed at %s: %s)", e.rel, e.stage, firstLine(e.detail))
			continue
		}
		if st, d := verdict(r, e.rows); st != stagePass {
			t.Errorf("%s: DuckDB finds the copy differs from its stand-in %s (%s) at %s: %s", e.rel, si.file, si.why, st, d)
			continue
		}
		standInPass++
		t.Logf("%s: the copy holds the rows DuckDB reads from %s (%s)", e.rel, si.file, si.why)
	}

	// Verdicts against the exclusion table.
	pass := verdicts(t, entries, excluded)
	for rel := range excluded {
		if types[typeName(rel)] != rel {
			t.Errorf("excluded file %s is not in the corpus", rel)
		}
	}
	for rel, s := range duckSkip {
		if types[typeName(rel)] != rel {
			t.Errorf("file %s of duckSkip is not in the corpus", rel)
		}
		t.Logf("%s: DuckDB compares it without columns %v: %s", rel, s.cols, s.reason)
	}
	for rel, si := range standIns {
		if types[typeName(rel)] != rel || types[typeName(si.file)] != si.file {
			t.Errorf("stand-in %s for %s: not in the corpus", si.file, rel)
		}
		if excluded[rel].stage != stageDuckA {
			t.Errorf("%s has a stand-in but is not excluded at %s", rel, stageDuckA)
		}
	}
	t.Logf("%d corpus files: %d pass, %d excluded (%d of them compared by DuckDB with a stand-in); generate %v, build %v, read+write %v, DuckDB %v",
		len(entries), pass, len(excluded), standInPass, genTime.Round(time.Millisecond), buildTime.Round(time.Millisecond), runTime.Round(time.Millisecond), duckTime.Round(time.Millisecond))
}

// verdicts checks each entry's verdict against the table of the files
// that cannot pass (by entry name: the stage each stops at and why): a
// file passes, or stops where the table says; a listed file that passes
// or stops elsewhere fails the test, so that the table stays true. It
// returns the number of files that pass.
func verdicts(t *testing.T, entries []*entry, table map[string]struct{ stage, reason string }) int {
	t.Helper()
	pass := 0
	for _, e := range entries {
		ex, listed := table[e.rel]
		switch {
		case e.stage == stagePass && !listed:
			pass++
		case e.stage == stagePass:
			t.Errorf("%s passes now: remove it from the table of files that cannot pass (was: %s at %s)", e.rel, ex.reason, ex.stage)
		case !listed:
			t.Errorf("%s fails at %s: %s", e.rel, e.stage, e.detail)
		case ex.stage != e.stage:
			t.Errorf("%s is listed as failing at stage %s (%s) but fails at %s: %s", e.rel, ex.stage, ex.reason, e.stage, e.detail)
		default:
			t.Logf("listed %s at %s: %s (%s)", e.rel, e.stage, ex.reason, firstLine(e.detail))
		}
	}
	return pass
}

// duckVerdicts gives each entry that reached the comparison (an empty
// stage) DuckDB's verdict.
func duckVerdicts(t *testing.T, built []*entry, duck map[string]nodejs.ExceptResult) {
	t.Helper()
	for _, e := range built {
		if e.stage != "" {
			continue
		}
		r, ok := duck[e.rel]
		if !ok {
			t.Fatalf("duckdb_except.mjs printed nothing for %s", e.rel)
		}
		e.stage, e.detail = verdict(r, e.rows)
	}
}

// logSlowest logs the three comparisons DuckDB took longest over.
func logSlowest(t *testing.T, duck map[string]nodejs.ExceptResult) {
	t.Helper()
	var slow []nodejs.ExceptResult
	for _, r := range duck {
		slow = append(slow, r)
	}
	sort.Slice(slow, func(i, j int) bool { return slow[i].Ms > slow[j].Ms })
	for _, r := range slow[:min(3, len(slow))] {
		t.Logf("DuckDB took %d ms on %s", r.Ms, r.Name)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// schemaDiff compares the schema of the copy with the one code generated
// from the original writes (gen.FileSchema: the original's, with the
// changes the generator makes on purpose) as our footer reader sees them
// (names, paths, repetition, physical and logical types, in the schema
// text form), and returns "" when they are equal.
func schemaDiff(orig, cp string, opts []runtime.ReaderOption) string {
	a, fa, err := runtime.OpenPath(orig, opts...)
	if err != nil {
		return "original: " + err.Error()
	}
	fa.Close()
	want, err := gen.FileSchema(a)
	if err != nil {
		return "original: " + err.Error()
	}
	b, fb, err := runtime.OpenPath(cp)
	if err != nil {
		return "copy: " + err.Error()
	}
	fb.Close()
	if sa, sb := want.String(), b.Schema.String(); sa != sb {
		return fmt.Sprintf("schemas differ:\ngenerated from the original:\n%s\ncopy:\n%s", sa, sb)
	}
	return ""
}

// driverDir is where the driver's sources go: a directory of the system's
// temporary directory named after this checkout (so that worktrees do not
// share it) and the test (what), removed after the test.
func driverDir(t *testing.T, what string) string {
	t.Helper()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(repo))
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("pqgen-genconf-%s-%x", what, sum[:8]))
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// driverResult is one line the driver prints.
type driverResult struct {
	File  string `json:"file"`
	Rows  int    `json:"rows"`
	Stage string `json:"stage,omitempty"` // "" on success
	Err   string `json:"err,omitempty"`
}

// driverMain is the driver's main.go: the table of corpus files, each
// with a function reading the original with the generated ReadTFile and
// writing the rows with WriteTFile; a panic is reported as a failure of
// the stage it happened in.
const driverMain = `package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
)

var (
	_ = runtime.WithFooterKey
	_ = meta.EncodingPlain
	_ = bytes.Equal
	_ = io.EOF
)

// keyTable is a key retriever answering from a table of keys by key
// metadata (the test unwrapped them).
func keyTable(keys map[string]string) func([]byte) ([]byte, error) {
	return func(md []byte) ([]byte, error) {
		if k, ok := keys[string(md)]; ok {
			return []byte(k), nil
		}
		return nil, fmt.Errorf("no key for key metadata %%q", md)
	}
}

type result struct {
	File  string ` + "`json:\"file\"`" + `
	Rows  int    ` + "`json:\"rows\"`" + `
	Stage string ` + "`json:\"stage,omitempty\"`" + `
	Err   string ` + "`json:\"err,omitempty\"`" + `
}

type job struct {
	file, out string
	run       func(in, out string, r *result)
}

var jobs = []job{
%s}

func main() {
	root, outDir := os.Args[1], os.Args[2]
	enc := json.NewEncoder(os.Stdout)
	for _, j := range jobs {
		r := result{File: j.file, Stage: "read"}
		func() {
			defer func() {
				if p := recover(); p != nil {
					r.Err = fmt.Sprintf("panic: %%v\n%%s", p, debug.Stack())
				}
			}()
			j.run(filepath.Join(root, j.file), filepath.Join(outDir, j.out), &r)
		}()
		if r.Err == "" {
			r.Stage = ""
		}
		if err := enc.Encode(r); err != nil {
			panic(err)
		}
	}
}
`

// driverJob is the table entry of one type.
const driverJob = `	{%q, %q, func(in, out string, r *result) {
		rows, err := Read%[3]sFile(%[4]s)
		r.Rows = len(rows)
		if err != nil {
			r.Err = err.Error()
			return
		}
		r.Stage = "write"
		if err := Write%[3]sFile(out, rows%[5]s); err != nil {
			r.Err = err.Error()
			return
		}
		// The same rows read again through New%[3]sReader with
		// WithReadParallelism(2), in batches of 97, 4099, 1 and 300 rows
		// in turn (decoding ahead, and columns decoded in parallel when
		// a batch holds enough), must write the same bytes.
		r.Stage = "parallel-read"
		f, err := os.Open(in)
		if err != nil {
			r.Err = err.Error()
			return
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			r.Err = err.Error()
			return
		}
		pr, err := New%[3]sReader(f, st.Size(), []runtime.ReaderOption{runtime.WithReadParallelism(2), %[6]s}...)
		if err != nil {
			r.Err = err.Error()
			return
		}
		var all []%[3]s
		buf := make([]%[3]s, 4099)
		for i := 0; ; i++ {
			n, err := pr.Read(buf[:[]int{97, 4099, 1, 300}[i%%4]])
			all = append(all, buf[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				r.Err = err.Error()
				return
			}
		}
		if err := pr.Close(); err != nil {
			r.Err = err.Error()
			return
		}
		if err := Write%[3]sFile(out+".par", all%[5]s); err != nil {
			r.Err = err.Error()
			return
		}
		a, errA := os.ReadFile(out)
		b, errB := os.ReadFile(out + ".par")
		os.Remove(out + ".par")
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			r.Err = fmt.Sprintf("the %%d rows read with WithReadParallelism(2) in batches of 97, 4099, 1 and 300 write other bytes than the %%d of Read%[3]sFile (%%v, %%v)", len(all), len(rows), errA, errB)
		}
	}},
`

// buildDriver writes the generated files and the driver into a module in
// src (requiring pqgen through a replace directive to this checkout) and
// builds it into dir. It returns the binary, or "", the compiler's
// messages by generated file and its whole output.
//
// The go build cache knows a package by its directory as well as its
// files: with src at the same path each time (driverDir), a run whose
// generated code has not changed does not compile it again.
func buildDriver(t *testing.T, src, dir string, files map[string][]byte, entries []*entry) (string, map[string]string, []byte) {
	t.Helper()
	if err := os.RemoveAll(src); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	// go.mod: pqgen's own requirements, so that nothing is resolved anew.
	mod, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gomod := strings.Replace(string(mod), "module github.com/pqgen/pqgen\n", "module pqgenconf\n", 1)
	gomod += "\nrequire github.com/pqgen/pqgen v0.0.0-00010101000000-000000000000\n\nreplace github.com/pqgen/pqgen => " + repo + "\n"
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(src, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", []byte(gomod))
	write("go.sum", sum)
	for name, b := range files {
		write(name, b)
	}
	var table strings.Builder
	for _, e := range entries {
		args := "in"
		if e.optsCode != "" {
			args += ", " + e.optsCode
		}
		fmt.Fprintf(&table, driverJob, e.rel, e.outName(), e.typ, args, e.writeCode, e.optsCode)
	}
	write("main.go", fmt.Appendf(nil, driverMain, table.String()))
	bin := filepath.Join(dir, "driver.bin")
	// Without optimisation (-N -l, the generated package only): compiling
	// it is most of the test's time, running it a second at most.
	cmd := exec.Command("go", "build", "-gcflags=-N -l", "-o", bin, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err == nil {
		return bin, nil, nil
	}
	bad := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		name, _, ok := strings.Cut(strings.TrimPrefix(line, "./"), ":")
		if _, isGen := files[name]; ok && isGen {
			bad[name] += line + "\n"
		}
	}
	return "", bad, out
}

// runDriver runs the driver and returns its results by corpus path.
func runDriver(t *testing.T, bin, root, outDir string) map[string]driverResult {
	t.Helper()
	cmd := exec.Command(bin, root, outDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("driver: %v\n%s", err, stderr.Bytes())
	}
	res := map[string]driverResult{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r driverResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("driver output %q: %v", sc.Text(), err)
		}
		res[r.File] = r
	}
	return res
}

// verdict is the stage a DuckDB comparison fails at, or stagePass; rows is
// what the generated reader read.
func verdict(r nodejs.ExceptResult, rows int) (string, string) {
	switch r.Stage {
	case "read-a":
		return stageDuckA, r.Error
	case "read-b":
		return stageDuckB, r.Error
	}
	if fmt.Sprint(r.TypesA) != fmt.Sprint(r.TypesB) {
		return stageTypes, fmt.Sprintf("original %v, copy %v", r.TypesA, r.TypesB)
	}
	if len(r.SkipReadable) > 0 {
		return stageRows, fmt.Sprintf("DuckDB reads the skipped columns %v now: remove them from duckSkip", r.SkipReadable)
	}
	if r.Stage == "except" {
		return stageRows, "EXCEPT ALL: " + r.Error
	}
	if r.Stage == "pushdown" {
		return stagePushdown, r.Error
	}
	if r.RowsA != rows || r.RowsB != rows || r.AMinusB != 0 || r.BMinusA != 0 {
		return stageRows, fmt.Sprintf("DuckDB counts %d rows in the original, %d in the copy (our reader %d); %d rows only in the original, %d only in the copy",
			r.RowsA, r.RowsB, rows, r.AMinusB, r.BMinusA)
	}
	if len(r.Pushdown) > 0 {
		return stagePushdown, strings.Join(r.Pushdown, "; ")
	}
	return stagePass, ""
}

// needNode returns the node binary, or skips the test (fails it under
// CI=true) when node or peers/js/node_modules is missing.
func needNode(t *testing.T) string {
	t.Helper()
	return nodejs.Need(t, "the generated-code corpus round trip (needs DuckDB through node)", "@duckdb/node-api")
}
