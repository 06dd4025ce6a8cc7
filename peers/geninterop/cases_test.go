package geninterop

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pqgen/pqgen/examples/generated"
	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/compress"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// rowWriter and rowReader are the generated writer and reader of T.
type (
	rowWriter[T any] interface {
		Write([]T) (int, error)
		Close() error
	}
	rowReader[T any] interface {
		Read([]T) (int, error)
		NumRows() int64
		Close() error
	}
)

// example is one example type: its rows and generated API.
type example[T any] struct {
	name string
	rows []T
	newW func(io.Writer, ...runtime.WriterOption) (rowWriter[T], error)
	newR func(io.ReaderAt, int64, ...runtime.ReaderOption) (rowReader[T], error)
}

// exampleCase is an example type seen without its type parameter.
type exampleCase interface {
	// Name is the Go type name.
	Name() string
	// Write writes every row with the generated writer.
	Write(opts ...runtime.WriterOption) ([]byte, error)
	// Diff reads data with the generated reader and describes how its rows
	// differ from the rows written ("" when equal); adjust, when not nil,
	// changes (a copy of) each wanted row first.
	Diff(data []byte, adjust func(row reflect.Value)) (string, error)
	// Rows is the []T of rows written.
	Rows() reflect.Value
}

func (e *example[T]) Name() string        { return e.name }
func (e *example[T]) Rows() reflect.Value { return reflect.ValueOf(e.rows) }

func (e *example[T]) Write(opts ...runtime.WriterOption) ([]byte, error) {
	return e.writeRows(e.rows, opts...)
}

// writeRows writes rows with the generated writer, in several Write
// calls, as a streaming caller makes them.
func (e *example[T]) writeRows(rows []T, opts ...runtime.WriterOption) ([]byte, error) {
	var buf bytes.Buffer
	w, err := e.newW(&buf, opts...)
	if err != nil {
		return nil, err
	}
	for i := 0; i < len(rows); i += 700 {
		if _, err := w.Write(rows[i:min(i+700, len(rows))]); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// cmpRows are the options comparing rows: NaN equals NaN (also as a
// Celsius); nil and empty are told apart; a DECIMAL held in []byte
// (Logical.DecBytes) is compared by value, since a writer may store it
// in another width (arrow writes FIXED_LEN_BYTE_ARRAY(17)).
var cmpRows = []cmp.Option{
	cmpopts.EquateNaNs(),
	cmp.Comparer(func(a, b generated.Celsius) bool { return a == b || a != a && b != b }),
	cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".DecBytes" },
		cmp.Comparer(func(a, b []byte) bool { return twos(a).Cmp(twos(b)) == 0 })),
}

func (e *example[T]) Diff(data []byte, adjust func(row reflect.Value)) (string, error) {
	want := e.rows
	if adjust != nil {
		want = append([]T(nil), e.rows...)
		for i := range want {
			adjust(reflect.ValueOf(&want[i]).Elem())
		}
	}
	r, err := e.newR(bytes.NewReader(data), int64(len(data)), peerOpts...)
	if err != nil {
		return "", err
	}
	got, err := readAll(r, 333)
	if err != nil {
		return "", err
	}
	return diffRows(want, got), nil
}

// peerOpts are the options generated readers read peer files with: peers
// rewrite files with every column nullable (DuckDB) and timestamps in one
// unit (DuckDB: microseconds), which the schema evolution rules read into
// the original types on request.
var peerOpts = []runtime.ReaderOption{runtime.WithOptionalAsRequired(true), runtime.WithCoarserTimeUnits(true)}

// readAll reads every row of r in batches of batch rows and closes it.
func readAll[T any](r rowReader[T], batch int) ([]T, error) {
	var got []T
	buf := make([]T, batch)
	for {
		n, err := r.Read(buf)
		got = append(got, buf[:n]...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return got, r.Close()
}

// diffRows describes the first difference between want and got ("" when
// equal, by cmpRows).
func diffRows[T any](want, got []T) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d rows, want %d", len(got), len(want))
	}
	for i := range got {
		if d := cmp.Diff(want[i], got[i], cmpRows...); d != "" {
			return fmt.Sprintf("row %d (-want +got):\n%s", i, d)
		}
	}
	return ""
}

func adaptW[T any, W rowWriter[T]](f func(io.Writer, ...runtime.WriterOption) (W, error)) func(io.Writer, ...runtime.WriterOption) (rowWriter[T], error) {
	return func(w io.Writer, o ...runtime.WriterOption) (rowWriter[T], error) {
		x, err := f(w, o...)
		if err != nil {
			return nil, err
		}
		return x, nil
	}
}

func adaptR[T any, R rowReader[T]](f func(io.ReaderAt, int64, ...runtime.ReaderOption) (R, error)) func(io.ReaderAt, int64, ...runtime.ReaderOption) (rowReader[T], error) {
	return func(r io.ReaderAt, n int64, o ...runtime.ReaderOption) (rowReader[T], error) {
		x, err := f(r, n, o...)
		if err != nil {
			return nil, err
		}
		return x, nil
	}
}

// cases returns the example types with their row sets.
func cases() []exampleCase {
	return []exampleCase{
		&example[generated.Event]{"Event", eventRows(), adaptW[generated.Event](generated.NewEventWriter), adaptR[generated.Event](generated.NewEventReader)},
		&example[generated.Order]{"Order", orderRows(), adaptW[generated.Order](generated.NewOrderWriter), adaptR[generated.Order](generated.NewOrderReader)},
		&example[generated.Deep]{"Deep", deepRows(), adaptW[generated.Deep](generated.NewDeepWriter), adaptR[generated.Deep](generated.NewDeepReader)},
		&example[generated.Logical]{"Logical", logicalRows(), adaptW[generated.Logical](generated.NewLogicalWriter), adaptR[generated.Logical](generated.NewLogicalReader)},
		&example[generated.Metric]{"Metric", metricRows(), adaptW[generated.Metric](generated.NewMetricWriter), adaptR[generated.Metric](generated.NewMetricReader)},
		&example[generated.Half]{"Half", halfRows(), adaptW[generated.Half](generated.NewHalfWriter), adaptR[generated.Half](generated.NewHalfReader)},
	}
}

// config is a writer configuration of the generated writers.
type config struct {
	name string
	opts []runtime.WriterOption
}

// configs are the writer configurations files are written with: small
// pages and row groups so that every file has several of each.
func configs() []config {
	small := []runtime.WriterOption{runtime.WithPageSize(4 << 10), runtime.WithRowGroupSize(12 << 10)}
	return []config{
		{"default", small},
		{"v2zstd", append([]runtime.WriterOption{runtime.WithDataPageVersion(2), runtime.WithCompression(meta.Zstd, compress.Level(0))}, small...)},
		{"nodict", append([]runtime.WriterOption{runtime.WithDictionary(false), runtime.WithCompression(meta.Snappy, compress.Level(0))}, small...)},
	}
}

// fileSchema is the schema in the footer of a file.
func fileSchema(t *testing.T, data []byte) *schema.Schema {
	t.Helper()
	return fileFooter(t, data).Schema
}

// fileFooter is the footer of a file.
func fileFooter(t *testing.T, data []byte) *runtime.File {
	t.Helper()
	r, err := runtime.NewFileReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return r.File()
}

// rowGroups is the number of row groups of a file.
func rowGroups(t *testing.T, data []byte) int {
	t.Helper()
	return len(fileFooter(t, data).Meta.RowGroups)
}

// TestGeneratedRoundTrip checks that the row sets survive our own writer
// and reader in every configuration, and that files have several row
// groups: the baseline of every peer comparison.
func TestGeneratedRoundTrip(t *testing.T) {
	for _, c := range cases() {
		for _, cfg := range configs() {
			data, err := c.Write(cfg.opts...)
			if err != nil {
				t.Fatalf("%s/%s: write: %v", c.Name(), cfg.name, err)
			}
			d, err := c.Diff(data, nil)
			if err != nil {
				t.Fatalf("%s/%s: read: %v", c.Name(), cfg.name, err)
			}
			if d != "" {
				t.Errorf("%s/%s: %s", c.Name(), cfg.name, d)
			}
			if rg := rowGroups(t, data); rg < 2 {
				t.Errorf("%s/%s: %d row groups, want several", c.Name(), cfg.name, rg)
			}
		}
	}
}
