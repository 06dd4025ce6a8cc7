package gen

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/runtime"
)

func TestParseTag(t *testing.T) {
	for _, c := range []struct {
		in   string
		want tag
		err  string
	}{
		{in: "", want: tag{}},
		{in: "-", want: tag{skip: true}},
		{in: "id", want: tag{name: "id", nameSet: true}},
		{in: ",optional", want: tag{optional: true}},
		{in: "a,optional,dict,zstd", want: tag{name: "a", nameSet: true, optional: true, col: ColumnOptions{Dict: "on", Compression: "zstd"}}},
		{in: "t,timestamp(millisecond)", want: tag{name: "t", nameSet: true, logical: "timestamp", unit: "millis"}},
		{in: "t,timestamp(microsecond,local)", want: tag{name: "t", nameSet: true, logical: "timestamp", unit: "micros", local: true}},
		{in: "t,timestamp", want: tag{name: "t", nameSet: true, logical: "timestamp", unit: "nanos"}},
		{in: "d,decimal(2,9)", want: tag{name: "d", nameSet: true, logical: "decimal", scale: 2, precision: 9}},
		{in: "x,id(12),bloom(50),split", want: tag{name: "x", nameSet: true, id: 12, idSet: true, col: ColumnOptions{BloomNDV: 50, Encoding: "split"}}},
		{in: "u,uuid", want: tag{name: "u", nameSet: true, logical: "uuid"}},
		{in: "p,alp", want: tag{name: "p", nameSet: true, col: ColumnOptions{Encoding: "alp"}}},
		{in: "p,alp,split", err: "conflicting encoding options alp and split"},
		{in: "p,alp(1)", err: "option alp takes no arguments"},
		{in: "x,frob", err: `unknown option "frob"`},
		{in: "x,decimal(9,2)", err: "scale <= precision"},
		{in: "x,timestamp(hour)", err: "unknown time unit"},
		{in: "x,uuid,json", err: "both uuid and json"},
		{in: "x,list,repeated", err: "exclude each other"},
	} {
		got, err := parseTag(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("parseTag(%q): error %v, want one containing %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("parseTag(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

func TestExportedName(t *testing.T) {
	for _, c := range []struct{ in, plain, goName string }{
		{"order_id", "OrderId", "OrderID"},
		{"fooBar", "FooBar", "FooBar"},
		{"1st", "F1st", "F1st"},
		{"", "Field", "Field"},
		{"__", "Field", "Field"},
		{"a-b c", "ABC", "ABC"},
		{"été", "Été", "Été"},
		{"日本", "X日本", "X日本"},
		{"ID", "ID", "ID"},
		{"id", "Id", "ID"},
		{"uid", "Uid", "UID"},
		{"uuid", "Uuid", "UUID"},
		{"sku", "Sku", "SKU"},
		{"orderId", "OrderId", "OrderID"},
		{"user_ids", "UserIds", "UserIDs"},
		{"LineIDs", "LineIDs", "LineIDs"},
		{"http_url", "HttpUrl", "HTTPURL"},
		{"HTTPServer", "HTTPServer", "HTTPServer"},
		{"httpsProxy", "HttpsProxy", "HTTPSProxy"},
		{"api_key", "ApiKey", "APIKey"},
		{"json_payload", "JsonPayload", "JSONPayload"},
		{"xml", "Xml", "XML"},
		{"sql_text", "SqlText", "SQLText"},
		{"src_ip", "SrcIp", "SrcIP"},
		{"tcp_port", "TcpPort", "TCPPort"},
		{"udp", "Udp", "UDP"},
		{"cpu_pct", "CpuPct", "CPUPct"},
		{"dns_name", "DnsName", "DNSName"},
		{"html", "Html", "HTML"},
		{"eof", "Eof", "EOF"},
		{"ttl_s", "TtlS", "TTLS"},
		{"utc_offset", "UtcOffset", "UTCOffset"},
		{"utf8Name", "Utf8Name", "UTF8Name"},
		{"uri", "Uri", "URI"},
		{"ORDER_ID", "ORDERID", "ORDERID"},
		{"idle", "Idle", "Idle"},
		{"uids", "Uids", "UIDs"},
		{"ids", "Ids", "IDs"},
	} {
		if got := exportedName(c.in, true); got != c.plain {
			t.Errorf("exportedName(%q, plain) = %q, want %q", c.in, got, c.plain)
		}
		if got := exportedName(c.in, false); got != c.goName {
			t.Errorf("exportedName(%q) = %q, want %q", c.in, got, c.goName)
		}
	}
}

func TestElemTypeName(t *testing.T) {
	for in, want := range map[string]string{
		"OrderItems": "OrderItem", "OrderEntries": "OrderEntry", "UserAddresses": "UserAddress",
		"OrderLineIDs": "OrderLineID", "OrderBoxes": "OrderBox", "OrderMatches": "OrderMatch",
		"OrderStatus": "OrderStatus", "OrderStatuses": "OrderStatus", "OrderChildren": "OrderChild",
		"OrderPeople": "OrderPerson", "OrderData": "OrderData", "OrderHistory": "OrderHistory",
		"OrderAliases": "OrderAlias", "OrderAlias": "OrderAlias", "OrderDNS": "OrderDNS",
		"OrderGPS": "OrderGPS", "OrderMovies": "OrderMovie", "OrderIndices": "OrderIndex",
		"OrderAnalysis": "OrderAnalysis", "OrderLeaves": "OrderLeaf", "Order1s": "Order1",
		"OrderSeries": "OrderSeries", "ORDERITEMS": "ORDERITEM", "OrderTAGS": "OrderTAG",
		"OrderCategories": "OrderCategory", "OrderAreas": "OrderArea", "Orders": "Order",
	} {
		got := elemTypeName(in)
		if got != want {
			t.Errorf("elemTypeName(%q) = %q, want %q", in, got, want)
		}
		// Idempotent: a nested list does not shorten the name again.
		if again := elemTypeName(got); again != got {
			t.Errorf("elemTypeName(%q) = %q, not idempotent", got, again)
		}
	}
}

// TestGoErrors checks that errors about Go sources carry file:line.
func TestGoErrors(t *testing.T) {
	for _, c := range []struct {
		src, typ, want string
	}{
		{"type T struct {\n\tC chan int\n}", "T", "x.go:4: C: type chan int has no Parquet mapping"},
		{"type T struct {\n\tA [4]int16\n}", "T", "x.go:4: A: type [4]int16 has no Parquet mapping (an array maps only as [N]byte, to FIXED_LEN_BYTE_ARRAY(N); a list is a slice: []int16)"},
		{"type T struct {\n\tV any\n}", "T", "x.go:4: V: type any has no Parquet mapping (an interface has no column type: a Variant is a variant.Encoded field)"},
		{"type T struct {\n\tP **int\n}", "T", "x.go:4: P: pointer to *int: one pointer makes a value optional"},
		{"type G struct{ B int }\n\ntype T struct {\n\tAB int `parquet:\"a.B\"`\n\tA  G  `parquet:\"a\"`\n}", "T",
			`x.go:5: T: the column "a.B" and the column "a" > "B" have the same dotted path: a name with a dot makes`},
		{"type T struct {\n\tA int `parquet:\"a,frob\"`\n}", "T", "x.go:4: field A: tag"},
		{"type T struct {\n\tA string `parquet:\"a,uuid\"`\n}", "T", "x.go:4: a: option uuid does not apply to type string"},
		{"type T struct {\n\tU uint64 `parquet:\"u,decimal(0,18)\"`\n}", "T", "x.go:4: u: option decimal needs a signed integer type, not uint64"},
		{"type T struct {\n\tU uint64 `parquet:\"u,timestamp(millisecond)\"`\n}", "T", "x.go:4: u: option timestamp needs a signed integer type, not uint64"},
		{"type T struct {\n\tU uint32 `parquet:\"u,date\"`\n}", "T", "x.go:4: u: option date needs a signed integer type, not uint32"},
		{"type T struct {\n\tU uint32 `parquet:\"u,time(millisecond)\"`\n}", "T", "x.go:4: u: option time needs a signed integer type, not uint32"},
		{"type T struct {\n\tA int `parquet:\"a\"`\n\tB int `parquet:\"a\"`\n}", "T", `x.go:5: column "a" is also the name of the field at x.go:4`},
		{"type T struct {\n\tNext *T\n}", "T", "x.go:4: type T is recursive"},
		{"type T int", "T", "x.go:3: T is not a struct type"},
		{"type T struct{ A int }", "U", "type U not found"},
		{"type T struct {\n\tA []int `parquet:\"a,optional,repeated\"`\n}", "T", "x.go:4: a: a bare repeated field cannot be optional"},
		{"type T struct {\n\tM map[[]byte]int\n}", "T", "x.go:4:8: invalid map key type"},
		{"type T struct {\n\tS struct{ A int } `parquet:\",optional\"`\n}", "T", "x.go:4: S: option optional on a struct: use a pointer"},
		{"type T struct{ A int }\n\nfunc NewTWriter() {}", "T", "x.go:5: NewTWriter is declared here; pqgen declares it for type T"},
		{"type T struct {\n\tD int64 `parquet:\"d,delta\"`\n\tF float32 `parquet:\"f,delta\"`\n}", "T", "x.go:5: T: column f: encoding delta does not apply to float"},
		{"type T struct {\n\tP float64 `parquet:\"p,alp\"`\n\tI int64 `parquet:\"i,alp\"`\n}", "T", "x.go:5: T: column i: encoding alp does not apply to int64"},
		// A decimal's precision must fit its Go type's physical type.
		{"type T struct {\n\tA int32 `parquet:\"a,decimal(2,9)\"`\n\tB int32 `parquet:\"b,decimal(2,10)\"`\n}", "T", "x.go:5: b: invalid schema: DECIMAL(10,2): int32 holds up to 9 digits, not 10"},
		{"type T struct {\n\tA int64 `parquet:\"a,decimal(2,18)\"`\n\tB int `parquet:\"b,decimal(2,19)\"`\n}", "T", "x.go:5: b: invalid schema: DECIMAL(19,2): int64 holds up to 18 digits, not 19"},
		{"type T struct {\n\tA [8]byte `parquet:\"a,decimal(2,18)\"`\n\tB [8]byte `parquet:\"b,decimal(2,19)\"`\n}", "T", "x.go:5: b: invalid schema: DECIMAL(19,2): fixed_len_byte_array(8) holds up to 18 digits, not 19"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.26\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n\n"+c.src+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadGo(dir, []string{c.typ})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\nerror %v\nwant one containing %q", c.src, err, c.want)
		}
	}
}

// TestSchemaErrors checks that errors about schema text carry line:column.
func TestSchemaErrors(t *testing.T) {
	for _, c := range []struct {
		text, want string
	}{
		{"message m {\n  required int32 a\n}", "s.schema:3:1: "},
		{"message m {\n  required frob a;\n}", "s.schema:2:"},
		{"message m {\n  required int32 a;\n  optional fixed_len_byte_array(2000000) big;\n}", "s.schema:3:3: big: FIXED_LEN_BYTE_ARRAY(2000000) is too long"},
		{"message m {\n}", "the schema has no columns"},
		{"message m {\n  required int64 \"a.b\";\n  required group a {\n    required int64 b;\n  }\n}", `s.schema:4:5: "a.b" is also the path of the column at s.schema:2:3: a name with a dot`},
		// An annotation its type cannot carry: the writer would refuse it.
		{"message m {\n  required int32 a;\n  required int32 s (STRING);\n}", `s.schema:3:3: invalid schema: column "s": STRING annotates binary, not int32`},
		{"message m {\n  optional int64 d (DECIMAL(19,2));\n}", `s.schema:2:3: invalid schema: column "d": DECIMAL(19,2): int64 holds up to 18 digits, not 19`},
	} {
		_, err := FromSchemaText("s.schema", c.text, "p", "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\nerror %v\nwant one containing %q", c.text, err, c.want)
		}
	}
	if _, err := FromSchemaText("s.schema", "message m { required int32 a; }", "p", "lower"); err == nil {
		t.Error("a lower-case type name was accepted")
	}
}

func TestGenerateNames(t *testing.T) {
	p, err := FromSchemaText("s", "message m { required int32 a; }", "p", "Metric")
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(p, "")
	if err != nil {
		t.Fatal(err)
	}
	b, ok := files["metric_parquet.go"]
	if !ok {
		t.Fatalf("files %v, want metric_parquet.go", files)
	}
	for _, want := range []string{
		"// Code generated by pqgen v" + runtime.Version + "; DO NOT EDIT.",
		"func NewMetricWriter(w pqio.Writer, opts ...pqrt.WriterOption) (*MetricWriter, error)",
		"func (w *MetricWriter) Write(rows []Metric) (int, error)",
		"func (w *MetricWriter) Flush() error",
		"func (w *MetricWriter) Close() error",
		"func NewMetricReader(r pqio.ReaderAt, size int64, opts ...pqrt.ReaderOption) (*MetricReader, error)",
		"func (r *MetricReader) Read(rows []Metric) (int, error)",
		"func (r *MetricReader) NumRows() int64",
		"func (r *MetricReader) Close() error",
		"func WriteMetricFile(path string, rows []Metric, opts ...pqrt.WriterOption) error",
		"func ReadMetricFile(path string, opts ...pqrt.ReaderOption) ([]Metric, error)",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("generated code lacks %q", want)
		}
	}
}

// TestSchemaTextPositions: generator errors on schema text name the
// field's line:column as the parser recorded it, past comments and quoted
// names holding keywords.
func TestSchemaTextPositions(t *testing.T) {
	text := "// required here is a comment\nmessage m { # optional too\n  required int32 \"required\";\n  optional group g {\n    repeated binary b;\n  }\n  optional fixed_len_byte_array(2000000) big;\n}\n"
	_, err := FromSchemaText("s", text, "p", "")
	if err == nil || !strings.Contains(err.Error(), "s:7:3: big") {
		t.Errorf("error %v, want one at s:7:3", err)
	}
}

func TestStructNamesAvoidGeneratedNames(t *testing.T) {
	p, err := FromSchemaText("s", "message m { optional group writer { required int32 a; } }", "p", "M")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range p.Types[0].Structs {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "M,MWriter2" {
		t.Errorf("struct names %v, want [M MWriter2]", names)
	}
}

// loadImporting runs LoadGo for type T of a package x.go holding src
// and importing imp, in a module that requires this checkout of pqgen.
func loadImporting(t *testing.T, imp, src string) error {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	// The test module may tidy its go.mod (offline: pqgen is replaced by
	// this checkout, its dependencies are in the module cache).
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	dir := t.TempDir()
	mod := "module x\n\ngo 1.26\n\nrequire github.com/pqgen/pqgen v0.0.0\n\nreplace github.com/pqgen/pqgen => " + root + "\n"
	files := map[string]string{
		"go.mod": mod, "go.sum": string(sum),
		"x.go": "package x\n\nimport \"" + imp + "\"\n\n" + src + "\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err = LoadGo(dir, []string{"T"})
	return err
}

// TestGoVariantErrors: variant.Encoded fields are supported as fields of
// the row type only, and never as pointers.
func TestGoVariantErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"type T struct {\n\tV *variant.Encoded\n}", "x.go:6: V: pointer to variant.Encoded"},
		{"type T struct {\n\tL []variant.Encoded\n}", "x.go:6: T: field L.list.element: a variant.Encoded below a list"},
		{"type T struct {\n\tS struct{ V variant.Encoded }\n}", "x.go:6: T: field S.V: a variant.Encoded below"},
		{"type T struct {\n\tV variant.Encoded `parquet:\"v,json\"`\n}", "x.go:6: v: option json does not apply to a Variant"},
	} {
		err := loadImporting(t, "github.com/pqgen/pqgen/runtime/variant", c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\nerror %v\nwant one containing %q", c.src, err, c.want)
		}
	}
}

// TestGoRuntimeTypeErrors: runtime.Decimal needs the decimal option and at
// most 38 digits; runtime.Interval takes no other logical type; float16
// applies to float32 and [2]byte only.
func TestGoRuntimeTypeErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"type T struct {\n\tD runtime.Decimal\n}", "x.go:6: D: runtime.Decimal needs the decimal(scale,precision) option"},
		{"type T struct {\n\tD runtime.Decimal `parquet:\"d,decimal(2,39)\"`\n}", "x.go:6: d: runtime.Decimal holds up to 38 digits, not 39"},
		{"type T struct {\n\tI runtime.Interval `parquet:\"i,uuid\"`\n}", "x.go:6: i: option uuid does not apply to type"},
		{"type T struct {\n\tF float64 `parquet:\"f,float16\"`\n\tR runtime.Interval\n}", "x.go:6: f: option float16 does not apply to type float64"},
	} {
		err := loadImporting(t, "github.com/pqgen/pqgen/runtime", c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\nerror %v\nwant one containing %q", c.src, err, c.want)
		}
	}
}

// TestDecimalBytes checks the FIXED_LEN_BYTE_ARRAY width of each DECIMAL
// precision against the table of the widths' largest precisions
// (floor(log10(2^(8n-1) - 1))).
func TestDecimalBytes(t *testing.T) {
	maxPrecision := []int32{0, 2, 4, 6, 9, 11, 14, 16, 18, 21, 23, 26, 28, 31, 33, 35, 38}
	n := 1
	for p := int32(1); p <= 38; p++ {
		for p > maxPrecision[n] {
			n++
		}
		if got := decimalBytes(p); got != n {
			t.Errorf("decimalBytes(%d) = %d, want %d", p, got, n)
		}
	}
}

// TestALPTag: the alp tag makes the generated writer ask for ALP on the
// column (WithColumnEncoding with meta.EncodingALP, dictionary off as for
// every explicit encoding).
func TestALPTag(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := "package x\n\ntype T struct {\n\tP float64 `parquet:\"price,alp\"`\n\tR float32 `parquet:\"r,alp,nodict\"`\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadGo(dir, []string{"T"})
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(p, "x_parquet.go")
	if err != nil {
		t.Fatal(err)
	}
	code := string(files["x_parquet.go"])
	for _, want := range []string{`pqrt.WithColumnDictionary("price", false)`, `pqrt.WithColumnEncoding("price", pqmeta.EncodingALP)`, `pqrt.WithColumnEncoding("r", pqmeta.EncodingALP)`} {
		if !strings.Contains(code, want) {
			t.Errorf("generated code lacks %s", want)
		}
	}
}

// TestFileType: a runtime.FileRef field and a struct tagged file make
// FILE groups (FileRef's with its six optional fields); a file-tagged
// struct with a field the FILE type does not define, or the option on a
// scalar, is refused.
func TestFileType(t *testing.T) {
	// The package lives inside the module (under testdata, which go
	// commands skip) so that it can import the runtime.
	load := func(src string) (*Package, error) {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		dir, err := os.MkdirTemp("testdata", "filetype")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir); os.Remove("testdata") })
		if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n\n"+src), 0o644); err != nil {
			t.Fatal(err)
		}
		return LoadGo(dir, []string{"T"})
	}
	p, err := load("import pqrt \"github.com/pqgen/pqgen/runtime\"\n\ntype Mine struct {\n\tURI *string `parquet:\"uri\"`\n\tInline []byte `parquet:\"inline,optional\"`\n}\n\n" +
		"type T struct {\n\tA pqrt.FileRef `parquet:\"a\"`\n\tB *pqrt.FileRef `parquet:\"b\"`\n\tC Mine `parquet:\"c,file\"`\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	// The six fields of a runtime.FileRef.
	const six = "    optional binary uri (STRING);\n    optional int64 offset;\n    optional int64 size;\n" +
		"    optional binary content_type (STRING);\n    optional binary checksum (STRING);\n    optional binary inline;\n"
	want := "message T {\n  required group a (FILE) {\n" + six + "  }\n  optional group b (FILE) {\n" + six + `  }
  required group c (FILE) {
    optional binary uri (STRING);
    optional binary inline;
  }
}
`
	if got := p.Types[0].Schema.String(); got != want {
		t.Errorf("schema:\n%s\nwant:\n%s", got, want)
	}
	for src, msg := range map[string]string{
		"type M struct {\n\tMtime *int64 `parquet:\"mtime\"`\n}\n\ntype T struct {\n\tC M `parquet:\"c,file\"`\n}\n": `field "mtime" is not one of uri`,
		"type M struct {\n\tURI string `parquet:\"uri\"`\n}\n\ntype T struct {\n\tC M `parquet:\"c,file\"`\n}\n":     "field uri is REQUIRED, not OPTIONAL",
		"type T struct {\n\tS string `parquet:\"s,file\"`\n}\n":                                                      "option file does not apply to type string",
	} {
		if _, err := load(src); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: error %v, want one containing %q", src, err, msg)
		}
	}
}

// TestGenerateOddColumnNames: quoted column names holding a newline, a NUL
// or a format verb generate code that compiles (comments keep control
// characters out, error messages take names as arguments, never as their
// format).
func TestGenerateOddColumnNames(t *testing.T) {
	text := "message m {\n  required group \"li\\nst\" (LIST) {\n    repeated group list {\n      optional binary \"el\\x00em\" (STRING);\n    }\n  }\n  optional int64 \"pct%d\";\n  required binary \"dec%s\" (DECIMAL(9,2));\n}\n"
	p, err := FromSchemaText("s", text, "p", "Odd")
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(p, "")
	if err != nil {
		t.Fatal(err)
	}
	src := files["odd_parquet.go"]
	if _, err := parser.ParseFile(token.NewFileSet(), "odd_parquet.go", src, parser.AllErrors); err != nil {
		t.Fatalf("generated code does not parse: %v", err)
	}
	for _, bad := range []string{`Errorf("column dec%s`, `Errorf("%w: Variant pct%d`} {
		if strings.Contains(string(src), bad) {
			t.Errorf("a column name is part of a format: %s", bad)
		}
	}
}
