package geninterop

// The documented exceptions of the interop matrix: what a peer cannot do
// with some example type, each narrowed to one peer, direction, type and
// field (or whole file) and checked to still apply, so that a fixed peer
// (or a fixed pqgen) makes the test fail until the exception is removed.

import (
	"encoding/hex"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// Directions of the matrix.
const (
	peerReads  = "peer reads ours"
	peerWrites = "ours reads peer"
)

// exception is one documented exception.
type exception struct {
	peer, dir, typ string
	// field is the top-level field concerned; "" for the whole file.
	field string
	why   string
	// errHas: the whole file fails with an error containing this text.
	errHas string
	// form: the peer gives each value of the field in this other form
	// (a representation, no loss); the field is compared in that form and
	// must differ in the canonical one.
	form func(want any) any
	// bad: the peer may get these wanted values wrong: the rows holding
	// one are not compared, but at least one of them must differ (so the
	// exception still applies); the other rows must match.
	bad func(want any) bool
	// adjust (whole file, peer writes): the peer changes values; the
	// generated reader's rows must differ from the rows written and equal
	// them once adjust has changed them as documented.
	adjust func(row reflect.Value)
}

var exceptions = []exception{
	// arrow-go v18.8.0 (pqarrow).
	{peer: "arrow-go", dir: peerReads, typ: "Logical", field: "enum", form: stringAsHex,
		why: "pqarrow reads an ENUM column as binary, not string"},
	{peer: "arrow-go", dir: peerReads, typ: "Logical", field: "json", form: stringAsHex,
		why: "pqarrow reads a JSON column as binary, not string"},
	{peer: "arrow-go", dir: peerReads, typ: "Logical", field: "float16", bad: subnormalFloat,
		why: "arrow-go's float16.Num.Float32 converts subnormal half floats wrongly (0x0001 becomes 1.1e-41, not 2^-24)"},
	{peer: "arrow-go", dir: peerReads, typ: "Half", field: "x", bad: subnormalFloat, why: "as for Logical.float16"},
	// DuckDB 1.5.6 (@duckdb/node-api 1.5.6-r.1).
	{peer: "duckdb", dir: peerReads, typ: "Logical", errHas: "Unsupported converted type (20)",
		why: "DuckDB rejects any file with a BSON column (ConvertedType 20)"},
	{peer: "duckdb", dir: peerReads, typ: noBSON, field: "dec_bytes", bad: notNull,
		why: "DuckDB reads a DECIMAL of precision over 38 (here BYTE_ARRAY DECIMAL(40,2)) as DOUBLE, with wrong values but for one-byte ones"},
	{peer: "duckdb", dir: peerReads, typ: noBSON, field: "ts_nanos", bad: subMicro,
		why: "DuckDB reads TIMESTAMP(NANOS,true) as TIMESTAMPTZ, in microseconds: the nanoseconds are lost"},
	{peer: "duckdb", dir: peerReads, typ: noBSON, field: "time_nanos", bad: subMicro,
		why: "DuckDB reads TIME(NANOS,true) as TIMETZ, in microseconds: the nanoseconds are lost"},
	{peer: "duckdb", dir: peerWrites, typ: "Logical", errHas: "Unsupported converted type (20)",
		why: "DuckDB cannot read the source file (BSON column), so it cannot write the rows"},
	{peer: "duckdb", dir: peerWrites, typ: noBSON, errHas: `column "float16": float in the file, fixed_len_byte_array(2) (FLOAT16) requested`,
		why: "DuckDB reads FLOAT16 as FLOAT and writes it as a FLOAT column: another logical type"},
	{peer: "duckdb", dir: peerWrites, typ: "Half", errHas: `column "x": float in the file, fixed_len_byte_array(2) (FLOAT16) requested`,
		why: "as for Logical: DuckDB writes FLOAT16 back as FLOAT"},

	// parquet-wasm 0.8.0 (arrow-rs) through apache-arrow 21.2.0.
	{peer: "wasm", dir: peerReads, typ: "Event", field: "session", form: uuidAsHex,
		why: "arrow-rs reads UUID as fixed_size_binary(16)"},
	{peer: "wasm", dir: peerReads, typ: "Metric", field: "trace", form: uuidAsHex, why: "as for Event.session"},
	{peer: "wasm", dir: peerReads, typ: "Logical", field: "uuid", form: uuidAsHex, why: "as for Event.session"},
	{peer: "wasm", dir: peerReads, typ: "Logical", field: "opt_uuid", form: uuidAsHex, why: "as for Event.session"},
	{peer: "wasm", dir: peerReads, typ: "Logical", field: "enum", form: stringAsHex,
		why: "arrow-rs reads an ENUM column as binary"},
	{peer: "wasm", dir: peerReads, typ: "Logical", field: "interval", form: intervalNoMonths,
		why: "arrow-rs reads INTERVAL as Interval(DayTime) and drops the months"},
	{peer: "wasm", dir: peerWrites, typ: "Logical", adjust: zeroIntervalMonths,
		why: "arrow-rs reads INTERVAL as Interval(DayTime), dropping the months, and writes that back"},
}

// findException returns the exception of a peer, direction, type and
// field ("" for the whole file), or nil.
func findException(peer, dir, typ, field string) *exception {
	for i := range exceptions {
		e := &exceptions[i]
		if e.peer == peer && e.dir == dir && e.typ == typ && e.field == field {
			return e
		}
	}
	return nil
}

// fieldExceptions returns the field exceptions of a peer, direction and type.
func fieldExceptions(peer, dir, typ string) map[string]*exception {
	out := map[string]*exception{}
	for i := range exceptions {
		e := &exceptions[i]
		if e.peer == peer && e.dir == dir && e.typ == typ && e.field != "" {
			out[e.field] = e
		}
	}
	return out
}

// checkFileError checks an error (possibly nil) of a peer on a whole file
// against its exception: with one, the error must contain its text;
// without, there must be no error. It returns a complaint or "", and
// whether the file's rows are to be compared.
func checkFileError(peer, dir, typ string, err error) (string, bool) {
	e := findException(peer, dir, typ, "")
	switch {
	case e == nil && err != nil:
		return err.Error(), false
	case e != nil && err == nil:
		return fmt.Sprintf("no error any more: remove the exception (%s)", e.why), false
	case e != nil && !strings.Contains(err.Error(), e.errHas):
		return fmt.Sprintf("error %q, the exception expects %q (%s)", err, e.errHas, e.why), false
	}
	return "", e == nil
}

// checkField compares the values of field c, applying its exception.
// It returns complaints.
func checkField(want, got [][]any, c int, name string, e *exception) []string {
	var out []string
	mismatches, canonDiffs, badRows, badWrong := 0, 0, 0, 0
	for i := range want {
		w, g := want[i][c], got[i][c]
		d := diffCanon(w, g)
		if d != "" {
			canonDiffs++
		}
		switch {
		case e == nil:
		case e.form != nil:
			d = diffCanon(e.form(w), g)
		case e.bad != nil && e.bad(w):
			badRows++
			if d != "" {
				badWrong++
			}
			d = ""
		}
		if d != "" {
			if mismatches < 3 {
				out = append(out, fmt.Sprintf("row %d field %s: %s", i, name, d))
			}
			mismatches++
		}
	}
	if mismatches > 3 {
		out = append(out, fmt.Sprintf("field %s: %d rows differ", name, mismatches))
	}
	if e != nil && e.form != nil && canonDiffs == 0 {
		out = append(out, fmt.Sprintf("field %s: the peer gives the canonical form now: remove the exception (%s)", name, e.why))
	}
	if e != nil && e.bad != nil && badWrong == 0 {
		out = append(out, fmt.Sprintf("field %s: the peer gets all %d values of the exception right: narrow or remove it (%s)", name, badRows, e.why))
	}
	return out
}

// compareRows compares a peer's rows with the wanted ones, field by field,
// with the field exceptions of the peer, direction and type.
func compareRows(peer, dir, typ string, want, got [][]any, names []string) []string {
	if len(got) != len(want) {
		return []string{fmt.Sprintf("%d rows, want %d", len(got), len(want))}
	}
	for i := range got {
		if len(got[i]) != len(names) {
			return []string{fmt.Sprintf("row %d has %d fields, want %d", i, len(got[i]), len(names))}
		}
	}
	ex := fieldExceptions(peer, dir, typ)
	var out []string
	for c, name := range names {
		out = append(out, checkField(want, got, c, name, ex[name])...)
		delete(ex, name)
	}
	for name, e := range ex {
		out = append(out, fmt.Sprintf("exception of field %s that the type lacks (%s)", name, e.why))
	}
	return out
}

// TestExceptionsNameMatrixCells: every exception names a cell the matrix
// runs and is of a kind that cell consults, so that none is silently
// never checked (a misspelt peer or type, a field exception where the
// whole file is excepted, a second exception shadowed by the first).
func TestExceptionsNameMatrixCells(t *testing.T) {
	types := map[string]bool{}
	for _, c := range cases() {
		types[c.Name()] = true
	}
	peers := map[string]bool{"arrow-go": true, "parquet-go": true, "duckdb": true, "wasm": true}
	seen := map[[4]string]bool{}
	for _, e := range exceptions {
		key := [4]string{e.peer, e.dir, e.typ, e.field}
		name := strings.Join(key[:], "/")
		kinds := 0
		for _, set := range []bool{e.errHas != "", e.form != nil, e.bad != nil, e.adjust != nil} {
			if set {
				kinds++
			}
		}
		switch {
		case !peers[e.peer]:
			t.Errorf("%s: no peer %q in the matrix", name, e.peer)
		case e.dir != peerReads && e.dir != peerWrites:
			t.Errorf("%s: no direction %q in the matrix", name, e.dir)
		case e.typ == noBSON && e.peer != "duckdb":
			t.Errorf("%s: only DuckDB gets the %s files", name, noBSON)
		case e.typ != noBSON && !types[e.typ]:
			t.Errorf("%s: no example type %q", name, e.typ)
		case kinds != 1:
			t.Errorf("%s: %d of errHas, form, bad, adjust set, want 1", name, kinds)
		case (e.field != "") != (e.form != nil || e.bad != nil):
			t.Errorf("%s: form and bad are the kinds of a field exception, errHas and adjust of a whole file", name)
		case e.adjust != nil && e.dir != peerWrites, (e.form != nil || e.bad != nil) && e.dir != peerReads:
			t.Errorf("%s: a kind of exception that direction does not consult", name)
		case seen[key]:
			t.Errorf("%s: a second exception of the same cell and field", name)
		case e.field != "":
			if f := findException(e.peer, e.dir, e.typ, ""); f != nil && f.errHas != "" {
				t.Errorf("%s: the whole file is excepted (%s), so the field is never compared", name, f.why)
			}
		}
		seen[key] = true
	}
}

// Forms of exceptions.

// zeroIntervalMonths clears the months of Logical.Interval.
func zeroIntervalMonths(row reflect.Value) {
	f := row.FieldByName("Interval")
	for k := 0; k < 4; k++ {
		f.Index(k).SetUint(0)
	}
}

func stringAsHex(v any) any {
	if s, ok := v.(string); ok {
		return hexV([]byte(s))
	}
	return v
}

func uuidAsHex(v any) any {
	if s, ok := v.(string); ok {
		b, err := hex.DecodeString(strings.ReplaceAll(s, "-", ""))
		if err == nil {
			return hexV(b)
		}
	}
	return v
}

func intervalNoMonths(v any) any {
	if m, ok := v.(map[string]any); ok {
		if h, ok := m["$hex"].(string); ok && len(h) == 24 {
			return map[string]any{"$hex": "00000000" + h[8:]}
		}
	}
	return v
}

func notNull(v any) bool { return v != nil }

// subMicro: a time or timestamp in nanoseconds that is not a whole number
// of microseconds.
func subMicro(v any) bool {
	s, ok := v.(string)
	return ok && len(s) >= 3 && s[len(s)-3:] != "000"
}

func subnormalFloat(v any) bool {
	f, ok := v.(flt)
	return ok && f != 0 && math.Abs(float64(f)) < math.Ldexp(1, -14)
}
